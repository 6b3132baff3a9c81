//===- test/hir/OpsTest.cpp - The op table --------------------------------===//
//
// hir/Ops.def against itself and the headers: every op's annotation name
// maps back to the op, other annotations name no op, every op the headers
// under include/tf annotate has a row and every row is annotated there, and
// the columns agree with what the plugin relies on.
//
//===----------------------------------------------------------------------===//

#include "hir/Ops.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace tf::hir {
namespace {

/// Every op, in table order.
const std::vector<OpKind> &allOps() {
  static const std::vector<OpKind> Ops = {
#define TF_OP(Kind, Name, Class, Arity, Result, Access, NeedsInstruction,      \
              Fuses, BinaryOp)                                                 \
  OpKind::Kind,
#include "hir/Ops.def"
  };
  return Ops;
}

/// The NAMEs of every [[clang::annotate("tf.op.NAME")]] in the headers
/// under include/tf.
std::set<std::string> annotatedNames() {
  namespace fs = std::filesystem;
  const std::string Marker = "clang::annotate(\"tf.op.";
  std::set<std::string> Names;
  std::error_code EC;
  for (fs::recursive_directory_iterator
           It(fs::path(TF_TEST_INCLUDE_DIR) / "tf", EC),
       End;
       !EC && It != End; It.increment(EC)) {
    if (!It->is_regular_file() || It->path().extension() != ".hpp")
      continue;
    std::ifstream In(It->path());
    std::stringstream Text;
    Text << In.rdbuf();
    const std::string S = Text.str();
    for (std::size_t At = S.find(Marker); At != std::string::npos;
         At = S.find(Marker, At + 1)) {
      std::size_t Begin = At + Marker.size();
      std::size_t End = S.find('"', Begin);
      if (End != std::string::npos)
        Names.insert(S.substr(Begin, End - Begin));
    }
  }
  EXPECT_FALSE(EC) << EC.message();
  return Names;
}

TEST(Ops, EveryNameRoundTrips) {
  std::set<std::string> Seen;
  for (OpKind K : allOps()) {
    EXPECT_EQ(opInfo(K).Kind, K);
    std::string Name = opName(K).str();
    EXPECT_FALSE(Name.empty());
    EXPECT_TRUE(Seen.insert(Name).second) << Name << " has two rows";
    EXPECT_EQ(opKindFromAnnotation("tf.op." + Name), K) << Name;
  }
}

TEST(Ops, OtherAnnotationsNameNoOp) {
  for (const char *A :
       {"tf.op.frobnicate", "tf.op.", "", "matmul", "tf.op.Matmul",
        "tf.op.matmul ", "tf.kernel", "tf.mesh.compute", "tf.opmatmul"})
    EXPECT_EQ(opKindFromAnnotation(A), std::nullopt) << '"' << A << '"';
}

TEST(Ops, HeadersAndTableAgree) {
  std::set<std::string> Annotated = annotatedNames();
  ASSERT_FALSE(Annotated.empty())
      << "no annotation under " << TF_TEST_INCLUDE_DIR;
  for (const std::string &Name : Annotated)
    EXPECT_TRUE(opKindFromAnnotation("tf.op." + Name).has_value())
        << "tf.op." << Name << " is annotated in include/tf but has no row "
        << "in Ops.def";
  for (OpKind K : allOps())
    EXPECT_EQ(Annotated.count(opName(K).str()), 1u)
        << opName(K).str() << " has a row but no header declares it";
}

TEST(Ops, ColumnsAgree) {
  for (OpKind K : allOps()) {
    const OpInfo &I = opInfo(K);
    bool Binary = I.Class == OpClass::ElementwiseBinary;
    // tf::broadcast too: a store applies it as the index of what it reads.
    bool Elementwise = Binary || I.Class == OpClass::ElementwiseUnary ||
                       I.Class == OpClass::Cast ||
                       I.Class == OpClass::Broadcast;
    // Binary element-wise ops name a BinaryOp value; besides them only
    // unary element-wise ops and reductions name a value of their
    // contracts' op choice (UnaryOp, ReduceOp).
    if (Binary)
      EXPECT_FALSE(I.BinaryOp.empty()) << I.Name.str();
    if (!I.BinaryOp.empty())
      EXPECT_TRUE(Binary || I.Class == OpClass::ElementwiseUnary ||
                  I.Class == OpClass::Reduce)
          << I.Name.str();
    // What works on register fragments fuses into its producer.
    EXPECT_EQ(fusesIntoProducer(K), Elementwise) << I.Name.str();
    // Bookkeeping and tf::schedule need no instruction chosen for them.
    // A mask is a predicate of coordinates, a broadcast a view of values
    // its holders have.
    bool Bookkeeping =
        I.Class == OpClass::Schedule || I.Class == OpClass::Allocate ||
        I.Class == OpClass::RingHandout || I.Class == OpClass::Loop ||
        I.Class == OpClass::Mask || I.Class == OpClass::Broadcast;
    EXPECT_EQ(needsInstruction(K), !Bookkeeping) << I.Name.str();
    // Only tf::schedule takes its relation and result from its atom.
    EXPECT_EQ(I.Access == AccessShape::Scheduled, K == OpKind::Schedule);
    EXPECT_EQ(I.Result == ResultType::Scheduled, K == OpKind::Schedule);
    EXPECT_EQ(I.Arity == Variadic, K == OpKind::Schedule);
    if (I.Arity != Variadic) {
      EXPECT_TRUE(takesTensorOperands(K, I.Arity)) << I.Name.str();
      EXPECT_FALSE(takesTensorOperands(K, I.Arity + 1)) << I.Name.str();
    }
  }
  EXPECT_EQ(opInfo(OpKind::Maximum).BinaryOp, "max");
  EXPECT_EQ(opInfo(OpKind::Minimum).BinaryOp, "min");
  EXPECT_EQ(opInfo(OpKind::Add).BinaryOp, "add");
  EXPECT_EQ(opInfo(OpKind::Matmul).Access, AccessShape::Mma);
  EXPECT_TRUE(writesInPlace(OpKind::Schedule));
  EXPECT_TRUE(writesInPlace(OpKind::InsertSlice));
  EXPECT_TRUE(writesInPlace(OpKind::Copy));
  EXPECT_FALSE(writesInPlace(OpKind::Cast));
  EXPECT_FALSE(writesInPlace(OpKind::RingNext));
}

TEST(Ops, ContractKindsImplementOpClasses) {
  auto Implemented = [](AtomKind Kind) {
    std::vector<OpKind> Out;
    for (OpKind K : allOps())
      if (contractKindImplements(Kind, K))
        Out.push_back(K);
    return Out;
  };
  EXPECT_EQ(Implemented(AtomKind::mma), std::vector<OpKind>{OpKind::Matmul});
  EXPECT_EQ(Implemented(AtomKind::copy),
            (std::vector<OpKind>{OpKind::Copy, OpKind::InsertSlice}));
  EXPECT_EQ(Implemented(AtomKind::elementwise),
            (std::vector<OpKind>{OpKind::Cast, OpKind::Add, OpKind::Sub,
                                 OpKind::Mul, OpKind::Div, OpKind::Maximum,
                                 OpKind::Minimum, OpKind::Neg, OpKind::Exp,
                                 OpKind::Exp2, OpKind::Rsqrt, OpKind::Relu,
                                 OpKind::GeluTanh, OpKind::GeluErf,
                                 OpKind::Silu, OpKind::Scale}));
  EXPECT_EQ(Implemented(AtomKind::reduce),
            (std::vector<OpKind>{OpKind::ReduceSum, OpKind::ReduceMax}));
  EXPECT_TRUE(Implemented(AtomKind::config).empty());
  // A tiled MMA performs a matmul, a TMA or plain copy a copy.
  EXPECT_EQ(scheduledOp(AtomKind::mma), OpKind::Matmul);
  EXPECT_EQ(scheduledOp(AtomKind::copy), OpKind::Copy);
  EXPECT_EQ(scheduledOp(AtomKind::elementwise), std::nullopt);
  EXPECT_EQ(scheduledOp(AtomKind::reduce), std::nullopt);
  EXPECT_EQ(scheduledOp(AtomKind::config), std::nullopt);
}

} // namespace
} // namespace tf::hir
