//===- test/contracts/engine_test.cpp - The engine on small contracts -----===//
//
// Rules of the engine that the MMA contracts do not exercise: operands
// matched whole (no atom shape), symbolic shapes, alternatives under one
// name, row-major and same-as arrangements, limits, the reason capacity.
//
//===----------------------------------------------------------------------===//
#include "helpers.hpp"

using namespace tf_test;
using tf::ReasonKind;

namespace {

constexpr tf::Mesh warp_pattern() {
  tf::Mesh m;
  m.level = "thread";
  m.layout = tf::parse_layout("(32)").value();
  m.offset = tf::Int::symbolic("p0");
  return m;
}

inline constexpr tf::LayoutPattern dst_layouts[] = {
    {tf::LayoutPatternKind::row_major, {}, {}, {}, {}, "row-major box"},
};
inline constexpr tf::LayoutPattern same_layouts[] = {
    {tf::LayoutPatternKind::same_as, {}, {}, {}, "src", "as src"},
};

constexpr tf::OperandPattern copy_operand(tf::Name name, tf::Storage st,
                                          tf::List<tf::LayoutPattern> layouts) {
  tf::OperandPattern o;
  o.name = name;
  o.shape = tf::parse_int_tuple("(rows,cols)").value();
  o.storage = st;
  o.layouts = layouts;
  return o;
}

// A toy copy: src in gmem or smem (alternatives), dst a row-major smem box,
// rows <= 256, inner bytes a multiple of 16.
inline constexpr tf::OperandPattern copy_operands[] = {
    copy_operand("src", tf::Storage::gmem, {}),
    copy_operand("src", tf::Storage::smem, {}),
    copy_operand("dst", tf::Storage::smem, dst_layouts),
};
inline constexpr tf::OperandLimit copy_limits[] = {
    {"dst", tf::OperandLimit::Kind::mode_extent_max, 0, 256, {}, "box <= 256"},
    {"dst", tf::OperandLimit::Kind::inner_bytes_mult, 0, 16, {}, "16-byte rows"},
};

constexpr tf::Contract toy_copy() {
  tf::Contract c;
  c.id = "test.Copy";
  c.kind = tf::AtomKind::copy;
  c.execution_mesh.mesh = warp_pattern();
  c.operands = copy_operands;
  c.limits = copy_limits;
  return c;
}
inline constexpr tf::Contract copy = toy_copy();

constexpr tf::Mesh lanes = tf::mesh("thread", tf::IntTuple{32});

TEST(Engine, WholeOperandsAndAlternatives) {
  tf::Site s;
  s.mesh = lanes;
  s.operands = {
      tf::site_operand("src", {64, 64}, tf::DType::bf16, tf::Storage::smem,
                       tf::layout<"(64,64)">),
      tf::site_operand("dst", {64, 64}, tf::DType::bf16, tf::Storage::smem,
                       tf::layout<"((2,32),(4,16)):((2048,64),(16,1))">),
  };
  tf::MatchReport r = tf::match(copy, s);
  ASSERT_TRUE(r.accepted) << tf::describe(r, copy);
  EXPECT_FALSE(r.repeat.derived);
  operand(s, "src").storage = tf::Storage::rmem;
  r = tf::match(copy, s);
  // rmem is none of src's alternatives: all of them are named.
  EXPECT_EQ(reasons(r, copy), "operand src: storage rmem, expected gmem or smem\n");
  // A missing operand names them too.
  s.operands = {s.operands[1]};
  r = tf::match(copy, s);
  EXPECT_EQ(reasons(r, copy),
            "operand src: missing (expected shape=(rows,cols) storage=gmem or smem)\n");
}

TEST(Engine, RowMajorAndLimits) {
  tf::Site s;
  s.mesh = lanes;
  s.operands = {
      tf::site_operand("src", {300, 4}, tf::DType::bf16, tf::Storage::gmem),
      tf::site_operand("dst", {300, 4}, tf::DType::bf16, tf::Storage::smem,
                       tf::layout<"(300,4):(1,300)">),
  };
  tf::MatchReport r = tf::match(copy, s);
  EXPECT_EQ(reasons(r, copy),
            "operand dst: fragment (300,4):(1,300) is not the compact "
            "row-major layout of its shape\n"
            "operand dst: extent of mode 0 <= 256 fails (found 300) [box <= 256]\n"
            "operand dst: bytes of the innermost mode % 16 == 0 fails (found 8) "
            "[16-byte rows]\n");
}

TEST(Engine, ShapesBindSymbolsConsistently) {
  tf::Site s;
  s.mesh = lanes;
  s.operands = {
      tf::site_operand("src", {64, 32}, tf::DType::bf16, tf::Storage::gmem),
      tf::site_operand("dst", {64, 64}, tf::DType::bf16, tf::Storage::smem,
                       tf::layout<"(64,64)">),
  };
  // rows and cols bind once for the site: src binds (64,32), dst differs.
  tf::MatchReport r = tf::match(copy, s);
  EXPECT_EQ(reasons(r, copy),
            "operand dst: shape (64,64) does not fit (rows,cols) = (64,32) "
            "bound by operand src\n");
  // One symbol of two conflicting: the other is substituted all the same.
  operand(s, "src").shape = tf::IntTuple{32, 64};
  r = tf::match(copy, s);
  EXPECT_EQ(reasons(r, copy),
            "operand dst: shape (64,64) does not fit (rows,cols) = (32,64) "
            "bound by operand src\n");
  // The same shape twice: accepted.
  operand(s, "src").shape = tf::IntTuple{64, 64};
  EXPECT_TRUE(tf::match(copy, s).accepted);
  // A wrong rank is the operand's own misfit, printed as before.
  operand(s, "dst").shape = tf::IntTuple{64, 64, 2};
  r = tf::match(copy, s);
  EXPECT_EQ(line(r, copy, ReasonKind::operand_shape, "dst"),
            "operand dst: shape (64,64,2) does not fit (rows,cols)");
  // An operand whose shape does not fit binds nothing: the next one is
  // checked alone (no cascade).
  operand(s, "src").shape = tf::IntTuple{64, 64, 2};
  operand(s, "dst").shape = tf::IntTuple{64, 32};
  operand(s, "dst").layout.layout = tf::layout<"(64,32)">;
  r = tf::match(copy, s);
  EXPECT_EQ(reasons(r, copy),
            "operand src: shape (64,64,2) does not fit (rows,cols)\n");
}

TEST(Engine, OperandsWithoutLayoutAreNotChecked) {
  // site.hpp: no layout given, only shape, dtype, storage and the limits.
  tf::Site s;
  s.mesh = lanes;
  s.operands = {
      tf::site_operand("src", {64, 64}, tf::DType::bf16, tf::Storage::gmem),
      tf::site_operand("dst", {64, 64}, tf::DType::bf16, tf::Storage::smem),
  };
  tf::MatchReport r = tf::match(copy, s);
  EXPECT_TRUE(r.accepted) << tf::describe(r, copy);
  EXPECT_EQ(r.fragment("dst"), nullptr);
  operand(s, "dst").shape = tf::IntTuple{300, 64};
  operand(s, "src").shape = tf::IntTuple{300, 64};
  r = tf::match(copy, s);
  EXPECT_EQ(reasons(r, copy),
            "operand dst: extent of mode 0 <= 256 fails (found 300) [box <= 256]\n");
}

inline constexpr tf::OperandPattern ew_operands[] = {
    copy_operand("src", tf::Storage::rmem, {}),
    copy_operand("dst", tf::Storage::rmem, same_layouts),
};
constexpr tf::Contract toy_cast() {
  tf::Contract c;
  c.id = "test.Cast";
  c.kind = tf::AtomKind::elementwise;
  c.execution_mesh.mesh = warp_pattern();
  c.operands = ew_operands;
  return c;
}
inline constexpr tf::Contract cast = toy_cast();

TEST(Engine, SameAs) {
  tf::Site s;
  s.mesh = lanes;
  s.operands = {
      tf::site_operand("src", {32, 8}, tf::DType::f32, tf::Storage::rmem,
                       shard("(32@0,8):(8,1)", lanes)),
      tf::site_operand("dst", {32, 8}, tf::DType::bf16, tf::Storage::rmem,
                       shard("(32@0,8):(8,1)", lanes)),
  };
  EXPECT_TRUE(tf::match(cast, s).accepted);
  operand(s, "dst").shard = shard("(32@0,8):(1,32)", lanes);
  tf::MatchReport r = tf::match(cast, s);
  EXPECT_EQ(reasons(r, cast),
            "operand dst: its layout differs from operand src's\n");
  // src without a layout: dst's same_as is not checked.
  operand(s, "src").kind = tf::OperandLayoutKind::none;
  EXPECT_TRUE(tf::match(cast, s).accepted);
  // dst without a layout: not checked either.
  operand(s, "src") = tf::site_operand("src", {32, 8}, tf::DType::f32,
                                       tf::Storage::rmem,
                                       shard("(32@0,8):(8,1)", lanes));
  operand(s, "dst").kind = tf::OperandLayoutKind::none;
  EXPECT_TRUE(tf::match(cast, s).accepted);
}

TEST(Engine, EveryReasonIsKeptUpToCapacity) {
  tf::Site s;
  s.mesh = lanes;
  for (int i = 0; i < 20; ++i) {
    char name[3] = {'p', char('a' + i), 0};
    if (!s.params.push_back(tf::arg(name, i)))
      break;
  }
  tf::MatchReport r = tf::match(copy, s);
  // 8 unknown parameters, 2 missing operands.
  EXPECT_EQ(r.reasons.size() + r.dropped, 10u);
  EXPECT_TRUE(r.has(ReasonKind::operand_missing, "dst"));
}

} // namespace
