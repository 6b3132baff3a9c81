//===- test/atoms/elementwise_test.cpp - Copy, Cast, Binary ---------------===//
#include "atom_checks.hpp"

#include "tf/atoms/generic/copy.hpp"
#include "tf/atoms/generic/elementwise.hpp"
#include "tf/layout/mesh_literal.hpp"
#include "tf/layout/text/literal.hpp"

#include <gtest/gtest.h>

namespace {
using namespace tf;
using namespace tf::test;
namespace generic = tf::atoms::generic;

static_assert(generic::copy.id == "generic.Copy");
static_assert(generic::cast.id == "generic.Cast");
static_assert(generic::binary.id == "generic.Binary");

TEST(Generic, NoCapabilityAnyThreadMesh) {
  Mesh compute = mesh("thread", layout<"(3,128)">)
                     .sub(range(1, 3), _)
                     .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");
  for (const Contract *c : {&generic::copy, &generic::cast, &generic::binary}) {
    EXPECT_TRUE(c->capability.empty()) << c->id.view();
    EXPECT_TRUE(match(c->execution_mesh, compute)) << c->id.view();
    EXPECT_TRUE(match(c->execution_mesh, mesh("thread", layout<"(1)">)));
    // Refused on the CTA mesh: element-wise work runs on threads.
    EXPECT_FALSE(match(c->execution_mesh, mesh("cta", layout<"(64,68)">)))
        << c->id.view();
  }
}

TEST(Generic, CopyStoragePairs) {
  int src = 0, dst = 0;
  for (const OperandPattern &o : generic::copy.operands) {
    EXPECT_NE(o.storage, Storage::amx_tile) << "needs tileloadd/tilestored";
    EXPECT_EQ(o.dtype.kind, DTypeRule::Kind::of_param);
    EXPECT_EQ(o.dtype.param, "dtype"); // src and dst: one dtype
    EXPECT_EQ(o.shape, generic::copy.operands[0].shape); // one shape
    src += o.name == "src";
    dst += o.name == "dst";
  }
  EXPECT_EQ(src, 3);
  EXPECT_EQ(dst, 3);
}

TEST(Generic, CastDomainsAndLayouts) {
  const Contract &c = generic::cast;
  const ParamDef *from = find_param(c, "from");
  const ParamDef *to = find_param(c, "to");
  ASSERT_TRUE(from && to);
  bool has_bf16 = false, has_fp8 = false;
  for (const ParamValue &v : to->allowed) {
    has_bf16 = has_bf16 || v.dtype == DType::bf16;
    has_fp8 = has_fp8 || v.dtype == DType::fp8e4m3 || v.dtype == DType::fp8e5m2;
  }
  EXPECT_TRUE(has_bf16);  // the GEMM epilogue's cast<bf16>(acc)
  EXPECT_FALSE(has_fp8);  // needs cvt.fp8
  const OperandPattern *src = find_operand(c, "src");
  const OperandPattern *dst = find_operand(c, "dst");
  ASSERT_TRUE(src && dst);
  EXPECT_EQ(src->dtype.param, "from");
  EXPECT_EQ(dst->dtype.param, "to");
  EXPECT_EQ(src->storage, Storage::rmem);
  ASSERT_EQ(dst->layouts.size(), 1u);
  EXPECT_EQ(dst->layouts[0].kind, LayoutPatternKind::same_as);
  EXPECT_EQ(dst->layouts[0].operand, "src");
}

TEST(Generic, BinaryOpsAndLayouts) {
  const Contract &c = generic::binary;
  const ParamDef *op = find_param(c, "op");
  ASSERT_NE(op, nullptr);
  const char *ops[] = {"add", "sub", "mul", "max", "min"};
  ASSERT_EQ(op->allowed.size(), 5u);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(op->allowed[i].choice, ops[i]);
  for (const char *name : {"rhs", "out"}) {
    const OperandPattern *o = find_operand(c, name);
    ASSERT_NE(o, nullptr);
    ASSERT_EQ(o->layouts.size(), 1u);
    EXPECT_EQ(o->layouts[0].kind, LayoutPatternKind::same_as);
    EXPECT_EQ(o->layouts[0].operand, "lhs");
    EXPECT_EQ(o->dtype.param, "dtype");
  }
}

} // namespace
