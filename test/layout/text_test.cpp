//===- test/layout/text_test.cpp - Parsing and printing layouts -----------===//
//
// Every written form of docs/layout/notation.md, the H200 GEMM's layouts in
// call style with Python's spacing, round trips (fixed and random), and every
// parse error with its position.
//
//===----------------------------------------------------------------------===//
#include "tf/layout/text.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

namespace {

using tf::Int;
using tf::IntTuple;
using tf::Layout;

Layout parse(std::string_view text) {
  tf::Result<Layout> r = tf::parse_layout(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.error().message() << " at "
                      << r.error().position;
  return r.ok() ? *r : Layout{};
}

tf::LayoutText parse_text(std::string_view text) {
  tf::Result<tf::LayoutText> r = tf::parse_layout_text(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.error().message() << " at "
                      << r.error().position;
  return r.ok() ? *r : tf::LayoutText{};
}

const Layout row_major_tile{{{2, 8, 8}, {4, 16}}, {{4096, 512, 64}, {16, 1}}};

// --- accepted forms --------------------------------------------------------

TEST(TextParse, CuteStyle) {
  EXPECT_EQ(parse("((2,8,8),(4,16)):((4096,512,64),(16,1))"), row_major_tile);
  EXPECT_EQ(parse(" ( (2, 8,8) ,\n(4,16) ) :\t((4096,512,64),(16,1)) "),
            row_major_tile);
  EXPECT_EQ(parse("8:1"), (Layout{8, 1}));
  EXPECT_EQ(parse("(8,4):(-1,8)"), (Layout{{8, 4}, {-1, 8}}));
}

TEST(TextParse, ShapeAloneIsRowMajor) {
  EXPECT_EQ(parse("(3,128)"), (Layout{{3, 128}, {128, 1}}));
  EXPECT_EQ(parse("((2,8,8),(4,16))"), row_major_tile);
  EXPECT_EQ(parse("8"), (Layout{8, 1}));
  EXPECT_EQ(parse("(132)"), tf::make_layout(IntTuple{132}));
}

TEST(TextParse, OneModeAndEmptyTuples) {
  // `(8)` is a tuple of one mode, as CuTe prints it; `(8,)` is the same
  // tuple written as in Python.
  EXPECT_EQ(parse("(8)"), (Layout{IntTuple{8}, IntTuple{1}}));
  EXPECT_EQ(parse("(8,):(1,)"), (Layout{IntTuple{8}, IntTuple{1}}));
  EXPECT_EQ(parse("()"), (Layout{IntTuple{}, IntTuple{}}));
  EXPECT_EQ(parse("():()"), (Layout{IntTuple{}, IntTuple{}}));
}

TEST(TextParse, ExtentKinds) {
  Layout l = parse("(?,n,*g,7):(m,?,*gs,-2)");
  EXPECT_EQ(l.shape.leaf_at(0), Int::dynamic());
  EXPECT_EQ(l.shape.leaf_at(1), Int::symbolic("n"));
  EXPECT_EQ(l.shape.leaf_at(2), Int::symbolic("g", true));
  EXPECT_EQ(l.shape.leaf_at(3), Int(7));
  EXPECT_EQ(l.stride.leaf_at(0), Int::symbolic("m"));
  EXPECT_EQ(l.stride.leaf_at(1), Int::dynamic());
  EXPECT_EQ(l.stride.leaf_at(2), Int::symbolic("gs", true));
  EXPECT_EQ(l.stride.leaf_at(3), Int(-2));
  // Default strides after a symbolic or unknown extent are dynamic.
  EXPECT_EQ(parse("(4,n)"), (Layout{{4, Int::symbolic("n")},
                                    {Int::dynamic(), 1}}));
  EXPECT_EQ(parse("(n,4)"), (Layout{{Int::symbolic("n"), 4}, {4, 1}}));
}

TEST(TextParse, SeedStyle) {
  EXPECT_EQ(parse("Layout(((2,8,8),(4,16)),((4096,512,64),(16,1)))"),
            row_major_tile);
  EXPECT_EQ(parse("Layout(((2, 8, 8), (4, 16)), ((4096, 512, 64), (16, 1)))"),
            row_major_tile);
  EXPECT_EQ(parse("Layout((3, 128))"), (Layout{{3, 128}, {128, 1}}));
  EXPECT_EQ(parse("Layout((3, 128),)"), (Layout{{3, 128}, {128, 1}}));
  // A name `Layout` not followed by '(' is a symbolic extent.
  EXPECT_EQ(parse("Layout:1"), (Layout{Int::symbolic("Layout"), 1}));
}

// The H200 GEMM's layouts and meshes in call style, spaced as Python prints
// them.
TEST(TextParse, SeedStrings) {
  tf::ComposedLayout lhs = *tf::parse_composed_layout(
      "Layout(((2, 8, 8), (4, 16)), ((4096, 512, 64), (16, 1))) | "
      "Swizzle(3, 4, 3)");
  EXPECT_EQ(lhs.layout, row_major_tile);
  EXPECT_EQ(lhs.swizzle, (tf::Swizzle{3, 4, 3}));
  EXPECT_EQ(lhs.offset, Int(0));

  tf::ComposedLayout rhs = *tf::parse_composed_layout(
      "Layout(((4, 2, 8), (4, 64)), ((4096, 512, 64), (1024, 1))) | "
      "Swizzle(3, 4, 3)");
  EXPECT_EQ(rhs.layout,
            (Layout{{{4, 2, 8}, {4, 64}}, {{4096, 512, 64}, {1024, 1}}}));

  tf::ComposedLayout staged = *tf::parse_composed_layout(
      "Layout((128, (4, 64)), (64, (8192, 1))) | Swizzle(3, 4, 3)");
  EXPECT_EQ(staged.layout, (Layout{{128, {4, 64}}, {64, {8192, 1}}}));

  tf::LayoutText mesh = parse_text("ComposedLayout(None, p0, Layout(((*g, 4, "
                                   "8, 4),), ((*gs, 32, 4, 1),)))");
  EXPECT_EQ(mesh.layout,
            (Layout{IntTuple{{Int::symbolic("g", true), 4, 8, 4}},
                    IntTuple{{Int::symbolic("gs", true), 32, 4, 1}}}));
  EXPECT_EQ(mesh.offset, Int::symbolic("p0"));
  EXPECT_TRUE(mesh.has_offset);
  EXPECT_FALSE(mesh.has_swizzle);

  tf::LayoutText wgmma =
      parse_text("ComposedLayout(None, p0, Layout(((4, 8, 4),), ((32, 4, "
                 "1),)))");
  EXPECT_EQ(wgmma.layout, (Layout{IntTuple{{4, 8, 4}}, IntTuple{{32, 4, 1}}}));

  EXPECT_EQ(parse("Layout((4, 2, 8, c, 4, 2), (16, 8, 1, 512, 128, 64))"),
            (Layout{{4, 2, 8, Int::symbolic("c"), 4, 2},
                    {16, 8, 1, 512, 128, 64}}));

  tf::LayoutText acc = parse_text(
      "(2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,128,64)");
  EXPECT_EQ(acc.layout, (Layout{{2, 4, 2, 8, 32, 4, 2},
                                {16384, 16, 8, 1, 512, 128, 64}}));
  ASSERT_TRUE(acc.has_axes);
  ASSERT_EQ(acc.axes.size(), 7u);
  EXPECT_EQ(acc.axes[0].name.view(), "group");
  EXPECT_EQ(acc.axes[1].name.view(), "warp");
  EXPECT_FALSE(acc.axes[2].bound());
  EXPECT_EQ(acc.axes[3].name.view(), "lane8");
  EXPECT_FALSE(acc.axes[4].bound());
  EXPECT_EQ(acc.axes[5].name.view(), "lane4");
  EXPECT_FALSE(acc.axes[6].bound());
}

TEST(TextParse, SeedMatrices) {
  tf::LayoutText threads = parse_text("[3@warpgroup 128@participant; 128 1]");
  EXPECT_EQ(threads.layout, (Layout{{3, 128}, {128, 1}}));
  EXPECT_EQ(threads.axes[0].name.view(), "warpgroup");
  EXPECT_EQ(threads.axes[1].name.view(), "participant");
  EXPECT_FALSE(threads.has_offset);

  tf::LayoutText compute =
      parse_text("[2@group 4@warp 8@lane8 4@lane4; 128 32 4 1] + 128");
  EXPECT_EQ(compute.layout, (Layout{{2, 4, 8, 4}, {128, 32, 4, 1}}));
  EXPECT_EQ(compute.offset, Int(128));
  EXPECT_TRUE(compute.has_offset);
  EXPECT_EQ(compute.axes[3].name.view(), "lane4");

  tf::LayoutText cta = parse_text("[132@persistent; 1]");
  EXPECT_EQ(cta.layout, (Layout{IntTuple{132}, IntTuple{1}}));

  tf::LayoutText lc = parse_text("[2@group 4@warp 2 8@lane8 32 4@lane4 2; "
                                 "16384 16 8 1 512 128 64]");
  EXPECT_EQ(lc.layout, (Layout{{2, 4, 2, 8, 32, 4, 2},
                               {16384, 16, 8, 1, 512, 128, 64}}));

  Layout la{{2, 8, 8, 4, 16}, {4096, 512, 64, 16, 1}};
  for (std::string_view text :
       {"Swizzle(3,4,3) o [2 8 8 4 16; 4096 512 64 16 1]",
        "Swizzle(3,4,3) \xE2\x88\x98 [2 8 8 4 16; 4096 512 64 16 1]",
        "Swizzle(3,4,3) o [ 2     8    8   4   16 ]\n"
        "                 [ 4096  512  64  16  1  ]",
        "[2, 8, 8, 4, 16; 4096, 512, 64, 16, 1] | Swizzle(3,4,3)"}) {
    tf::LayoutText t = parse_text(text);
    EXPECT_EQ(t.layout, la) << text;
    EXPECT_EQ(t.swizzle, (tf::Swizzle{3, 4, 3})) << text;
    EXPECT_TRUE(t.has_swizzle) << text;
  }
}

TEST(TextParse, AxisBindings) {
  tf::LayoutText t = parse_text("((2@0,4),8@lane):((1,2),8)");
  ASSERT_EQ(t.axes.size(), 3u);
  EXPECT_EQ(t.axes[0].index, 0);
  EXPECT_FALSE(t.axes[1].bound());
  EXPECT_EQ(t.axes[2].name.view(), "lane");
  EXPECT_TRUE(parse_text("(2 @ group, 4)").axes[0].name.view() == "group");
  // Without any binding there are no axes at all.
  tf::LayoutText plain = parse_text("(2,4)");
  EXPECT_FALSE(plain.has_axes);
  EXPECT_TRUE(plain.axes.empty());
}

TEST(TextParse, OffsetsAndSwizzles) {
  tf::ComposedLayout c = *tf::parse_composed_layout("(8,64):(64,1) + 128 | "
                                                    "Swizzle(3,4,3)");
  EXPECT_EQ(c.offset, Int(128));
  EXPECT_EQ(c.swizzle, (tf::Swizzle{3, 4, 3}));
  EXPECT_EQ(tf::parse_composed_layout("(8,64) + p0")->offset,
            Int::symbolic("p0"));
  EXPECT_EQ(tf::parse_composed_layout("(8,64) + ?")->offset, Int::dynamic());
  EXPECT_EQ(tf::parse_composed_layout(
                "ComposedLayout(Swizzle(2,4,3), 16, (8,32):(32,1))")
                ->swizzle,
            (tf::Swizzle{2, 4, 3}));
  EXPECT_EQ(tf::parse_composed_layout("Swizzle(1,4,-5) o (4,8)")->swizzle,
            (tf::Swizzle{1, 4, -5}));
  // A plain layout accepts ComposedLayout only without swizzle and offset.
  EXPECT_EQ(parse("ComposedLayout(None, 0, Layout((3,128)))"),
            (Layout{{3, 128}, {128, 1}}));
}

TEST(TextParse, IntTuples) {
  EXPECT_EQ(*tf::parse_int_tuple("((2,8,8),(4,16))"),
            (IntTuple{{2, 8, 8}, {4, 16}}));
  EXPECT_EQ(*tf::parse_int_tuple("7"), IntTuple(7));
  EXPECT_EQ(tf::parse_int_tuple("(2@a)").error().position, 2);
  EXPECT_EQ(tf::parse_int_tuple("(2) x").error().position, 4);
}

// --- errors ------------------------------------------------------------------

struct BadText {
  const char *text;
  const char *message;
  int position;
  tf::Errc code = tf::Errc::parse;
};

// parse_layout_text accepts axes, offsets and swizzles; these fail anyway.
const BadText bad_texts[] = {
    {"", "expected a layout: 'shape:stride', 'Layout(shape, stride)' or "
         "'[extents; strides]'",
     0},
    {"  #", "expected a layout: 'shape:stride', 'Layout(shape, stride)' or "
            "'[extents; strides]'",
     2},
    {"(2,8", "expected ',' or ')' to close the tuple", 4},
    {"(2 8)", "expected ',' or ')' to close the tuple", 3},
    {"(2,)x", "expected ':', '+ offset', '| Swizzle(b,m,s)' or the end of "
              "the layout",
     4},
    {"(2,,8)", "expected an extent: a number, '?', a name or '*name'", 3},
    {"(-2)", "expected an extent: a number, '?', a name or '*name'", 1},
    {"(2,8):(1,x", "expected ')': the shape has no more modes here", 10},
    {"(2,8):(1)", "expected ',': the shape has more modes here", 8},
    {"(2,8):(1,1,1)", "expected ')': the shape has no more modes here", 11},
    {"(2,8):(1 1)", "expected ',': the shape has more modes here", 9},
    {"(2,(4,8)):(1,8)", "expected '(': the shape has a tuple here", 13},
    {"(2,8):((1,2),1)",
     "expected a stride, not a tuple: the shape has an extent here", 7},
    {"(2,8):1", "expected '(': the shape has a tuple here", 6},
    {"(2,8):(1,:)", "expected a stride: a number, '?', a name or '*name'", 9},
    {"(2,8):(1,-)", "expected a number after '-'", 10},
    {"(2,8):(1@a,1)",
     "an axis binding belongs on the extent, not on the stride", 8},
    {"(2@,8)", "expected an axis after '@': a name or a mode index", 3},
    {"(2@300)", "axis index {} is too large", 3},
    {"(*,8)", "expected a name after '*'", 2},
    {"(* g,8)", "expected a name after '*'", 2},
    {"(99999999999999999999)", "number does not fit in 64 bits", 1},
    {"(abcdefghijklmnopqrstuvwxyz)", "name is longer than {} characters", 1},
    {"Layout((2,8)", "expected ')' to close 'Layout('", 12},
    {"Layout((2,8),(1,1) x)", "expected ')' to close 'Layout('", 19},
    {"(2,8) + ", "expected an offset: a number, '?' or a name", 8},
    {"(2,8) + *g", "expected an offset: a number, '?' or a name", 8},
    {"(2,8) + 4 x", "expected '| Swizzle(b,m,s)' or the end of the layout",
     10},
    {"(2,8) | Swizzle(3,4,3) + 4",
     "an offset comes before the swizzle: write 'layout + offset | "
     "Swizzle(b,m,s)'",
     23},
    {"(2,8) | Swizzle(3,4,3) x", "expected the end of the layout", 23},
    {"(2,8) | 3", "expected 'Swizzle(b,m,s)' after '|'", 8},
    {"Swizzle(3,4,3) o (2,8) | Swizzle(3,4,3)",
     "a layout has at most one swizzle", 23},
    {"Swizzle(3,4,3) (2,8)", "expected 'o' (composition) after the swizzle",
     15},
    {"Swizzle(3,4,3) o ComposedLayout(None, 0, (2,8))",
     "a layout has at most one swizzle", 17},
    {"(2,8) | Swizzle(3 4 3)", "expected ',' between swizzle parameters", 18},
    {"(2,8) | Swizzle(3,x,3)", "expected an integer swizzle parameter", 18},
    {"(2,8) | Swizzle(3,4,3", "expected ')' to close 'Swizzle('", 21},
    {"(2,8) | Swizzle(3,4,99)", "swizzle parameter {} is out of range", 20},
    {"(2,8) | Swizzle(3,4,2)",
     "swizzle shift |{}| is smaller than its {} bits; source and target bits "
     "would overlap",
     8},
    {"(2,8) | Swizzle(-1,4,3)",
     "swizzle bits ({}) and base ({}) must not be negative", 8},
    {"(2,8) | Swizzle(3,40,30)",
     "swizzle reads bit {}; the highest usable bit is {}", 8},
    {"ComposedLayout(Swizzle(3,4,3) 0, (2,8))",
     "expected ',' after the swizzle", 30},
    {"ComposedLayout(Identity, 0, (2,8))",
     "expected a swizzle: 'Swizzle(b,m,s)' or 'None'", 15},
    {"ComposedLayout(None, 0 (2,8))", "expected ',' after the offset", 23},
    {"ComposedLayout(None, 0, [2; 1])",
     "expected a layout: 'Layout(shape, stride)' or 'shape:stride'", 24},
    {"ComposedLayout(None, 0, (2,8)", "expected ')' to close 'ComposedLayout('",
     29},
    {"ComposedLayout(None, 0, (2,8)) + 4", "expected the end of the layout",
     31},
    {"[2 4", "expected ';' after the extent row", 4},
    {"[2 4] 1 2]", "expected '[' to start the stride row", 6},
    {"[2 4; 1 2 3]",
     "expected ']': the stride row is longer than the extent row", 10},
    {"[2 4; 1]",
     "expected a stride: the stride row is shorter than the extent row", 7},
    {"[2 4; 1 x@a]",
     "an axis binding belongs on the extent, not on the stride", 9},
    {"[2 (4); 1 1]", "expected an extent: a number, '?', a name or '*name'",
     3},
    {"((((((((((((((((((2))))))))))))))))))", "tuples nest deeper than {} levels",
     16, tf::Errc::capacity},
    {"(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
     "1,1,1,1,1,1,1,1,1,1,1,1,1)",
     "a shape has more than {} nodes", 95, tf::Errc::capacity},
    {"[1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 "
     "1 1@a; 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 "
     "1 1]",
     "a layout with axis bindings has at most {} leaves", 65,
     tf::Errc::capacity},
};

TEST(TextErrors, MessagesAndPositions) {
  for (const BadText &bad : bad_texts) {
    tf::Result<tf::LayoutText> r = tf::parse_layout_text(bad.text);
    ASSERT_FALSE(r.ok()) << bad.text;
    EXPECT_STREQ(r.error().what, bad.message) << bad.text;
    EXPECT_EQ(r.error().position, bad.position) << bad.text;
    EXPECT_EQ(r.error().code, bad.code) << bad.text;
  }
}

TEST(TextErrors, FilledMessages) {
  EXPECT_EQ(tf::parse_layout_text("(2,8) | Swizzle(3,4,2)").error().message(),
            "swizzle shift |2| is smaller than its 3 bits; source and target "
            "bits would overlap");
  EXPECT_EQ(tf::parse_layout_text("(abcdefghijklmnopqrstuvwxyz)")
                .error()
                .message(),
            "name is longer than 23 characters");
  EXPECT_EQ(tf::parse_layout_text("((((((((((((((((((2))))))))))))))))))")
                .error()
                .message(),
            "tuples nest deeper than 16 levels");
}

TEST(TextErrors, EntryPointsRejectWhatTheirTypeCannotHold) {
  const char *axes = "axis bindings ('@axis') belong to meshes and shard "
                     "layouts, not to a layout";
  const char *offset = "an offset needs a composed layout, not a plain layout";
  const char *swizzle = "a swizzle needs a composed layout, not a plain layout";
  struct Case {
    tf::Error error;
    const char *message;
    int position;
  };
  const Case cases[] = {
      {tf::parse_layout("(2@group,4)").error(), axes, 2},
      {tf::parse_layout("[2 4@w; 4 1]").error(), axes, 4},
      {tf::parse_composed_layout("(2@group,4)").error(), axes, 2},
      {tf::parse_layout("(2,4) + 8").error(), offset, 6},
      {tf::parse_layout("ComposedLayout(None, p0, (2,4))").error(), offset,
       21},
      {tf::parse_layout("(2,4) | Swizzle(3,4,3)").error(), swizzle, 8},
      {tf::parse_layout("Swizzle(3,4,3) o (2,4)").error(), swizzle, 0},
      {tf::parse_layout("ComposedLayout(Swizzle(3,4,3), 0, (2,4))").error(),
       swizzle, 15},
  };
  for (const Case &c : cases) {
    EXPECT_STREQ(c.error.what, c.message);
    EXPECT_EQ(c.error.position, c.position) << c.message;
    EXPECT_EQ(c.error.code, tf::Errc::parse);
  }
}

// --- printing ----------------------------------------------------------------

TEST(TextPrint, Tuples) {
  EXPECT_EQ(tf::to_string(IntTuple{{2, 8, 8}, {4, 16}}), "((2,8,8),(4,16))");
  EXPECT_EQ(tf::to_string(IntTuple(8)), "8");
  EXPECT_EQ(tf::to_string(IntTuple{}), "()");
  EXPECT_EQ(tf::to_string(IntTuple{Int::dynamic(), Int::dynamic(5),
                                   Int::symbolic("n"),
                                   Int::symbolic("g", true)}),
            "(?,5,n,*g)");
}

TEST(TextPrint, Layouts) {
  EXPECT_EQ(tf::to_string(row_major_tile),
            "((2,8,8),(4,16)):((4096,512,64),(16,1))");
  EXPECT_EQ(tf::to_string(Layout{8, 1}), "8:1");
  EXPECT_EQ(tf::to_string(Layout{IntTuple{8}, IntTuple{1}}), "(8):(1)");
  EXPECT_EQ(tf::to_seed_string(row_major_tile),
            "Layout(((2,8,8),(4,16)),((4096,512,64),(16,1)))");
  EXPECT_EQ(tf::to_seed_string(Layout{IntTuple{{4, 8, 4}},
                                      IntTuple{{32, 4, 1}}}),
            "Layout(((4,8,4),),((32,4,1),))");
  EXPECT_EQ(tf::to_string(parse_text("(2@group,4@1):(4,1)").layout,
                          parse_text("(2@group,4@1):(4,1)").axes),
            "(2@group,4@1):(4,1)");
}

TEST(TextPrint, SwizzlesAndComposedLayouts) {
  EXPECT_EQ(tf::to_string(tf::Swizzle{3, 4, 3}), "Swizzle(3,4,3)");
  tf::ComposedLayout c{{3, 4, 3}, 0, row_major_tile};
  EXPECT_EQ(tf::to_string(c),
            "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)");
  c.offset = Int::symbolic("p0");
  EXPECT_EQ(tf::to_string(c), "((2,8,8),(4,16)):((4096,512,64),(16,1)) + p0 "
                              "| Swizzle(3,4,3)");
  EXPECT_EQ(tf::to_seed_string(c),
            "ComposedLayout(Swizzle(3,4,3), p0, "
            "Layout(((2,8,8),(4,16)),((4096,512,64),(16,1))))");
  EXPECT_EQ(tf::to_string(tf::ComposedLayout{{}, 128, Layout{8, 1}}),
            "8:1 + 128");
  EXPECT_EQ(tf::to_seed_string(tf::ComposedLayout{{}, 0, Layout{8, 1}}),
            "ComposedLayout(None, 0, Layout(8,1))");
}

TEST(TextPrint, Matrix) {
  tf::LayoutText compute =
      parse_text("[2@group 4@warp 8@lane8 4@lane4; 128 32 4 1] + 128");
  EXPECT_EQ(tf::to_matrix_string(compute.layout, compute.axes, compute.offset),
            "[ 2@group  4@warp  8@lane8  4@lane4 ]\n"
            "[ 128      32      4        1       ] + 128");
  EXPECT_EQ(tf::to_matrix_line(compute.layout, compute.axes, compute.offset),
            "[2@group 4@warp 8@lane8 4@lane4; 128 32 4 1] + 128");
  EXPECT_EQ(tf::to_matrix_string(row_major_tile, {}, 0, {3, 4, 3}),
            "Swizzle(3,4,3) o [ 2     8    8   4   16 ]\n"
            "                 [ 4096  512  64  16  1  ]");
  EXPECT_EQ(tf::to_matrix_line(row_major_tile, {}, 0, {3, 4, 3}),
            "Swizzle(3,4,3) o [2 8 8 4 16; 4096 512 64 16 1]");
  EXPECT_EQ(tf::to_matrix_line(Layout{IntTuple{}, IntTuple{}}), "[; ]");
}

// --- round trips -------------------------------------------------------------

const char *const fixed_texts[] = {
    "((2,8,8),(4,16)):((4096,512,64),(16,1))",
    "(3,128):(128,1)",
    "8:1",
    "(8):(1)",
    "():()",
    "(?,n,*g):(*gs,?,-3)",
    "(2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,128,64)",
    "((*g,4,8,4)):((*gs,32,4,1)) + p0",
    "(128,(4,64)):(64,(8192,1)) + 64 | Swizzle(3,4,3)",
    "(4,8):(8,1) | Swizzle(2,0,-3)",
};

TEST(TextRoundTrip, FixedTexts) {
  for (const char *text : fixed_texts) {
    tf::LayoutText t = parse_text(text);
    EXPECT_EQ(tf::to_string(t), text);
    tf::LayoutText seed = parse_text(tf::to_seed_string(t.layout));
    EXPECT_EQ(seed.layout, t.layout) << text;
    tf::LayoutText line = parse_text(
        tf::to_matrix_line(t.layout, t.axes, t.offset, t.swizzle));
    tf::LayoutText grid = parse_text(
        tf::to_matrix_string(t.layout, t.axes, t.offset, t.swizzle));
    Layout flat{tf::flatten(t.layout.shape), tf::flatten(t.layout.stride)};
    if (flat.shape.is_leaf())
      flat = {IntTuple{flat.shape}, IntTuple{flat.stride}};
    for (const tf::LayoutText &m : {line, grid}) {
      EXPECT_EQ(m.layout, flat) << text;
      EXPECT_EQ(m.axes, t.axes) << text;
      EXPECT_EQ(m.offset, t.offset) << text;
      EXPECT_EQ(m.swizzle, t.swizzle) << text;
    }
  }
}

class RandomLayouts {
public:
  explicit RandomLayouts(unsigned seed) : rng(seed) {}

  Int extent() {
    switch (pick(8)) {
    case 0:
      return Int::dynamic();
    case 1:
      return Int::symbolic(name());
    case 2:
      return Int::symbolic(name(), true);
    default:
      return Int(std::int64_t(pick(300)));
    }
  }
  Int stride() {
    Int i = extent();
    if (i.is_constant() && pick(4) == 0)
      i.value = -i.value;
    return i;
  }
  IntTuple shape(int depth) {
    if (depth == 0 || pick(3) == 0)
      return extent();
    IntTuple t;
    for (int n = pick(4); n > 0; --n)
      t.push_back(shape(depth - 1));
    return t;
  }
  tf::LayoutText text() {
    tf::LayoutText t;
    t.layout.shape = shape(3);
    t.layout.stride = t.layout.shape;
    for (int i = 0; i < t.layout.shape.leaf_count(); ++i)
      t.layout.stride.set_leaf(i, stride());
    t.has_axes = pick(2) == 0;
    for (int i = 0; t.has_axes && i < t.layout.shape.leaf_count(); ++i) {
      tf::AxisRef ref;
      if (pick(3) == 0)
        ref.index = pick(8);
      else if (pick(2) == 0)
        ref.name = name();
      t.axes.push_back(ref);
    }
    // Text without a single binding parses as having no axes.
    if (t.axes.empty())
      t.has_axes = false;
    else
      t.axes[0] = tf::AxisRef{tf::Name("x"), -1};
    t.has_offset = pick(2) == 0;
    if (t.has_offset) {
      t.offset = extent();
      t.offset.variadic = false;
    }
    t.has_swizzle = pick(2) == 0;
    if (t.has_swizzle)
      t.swizzle = {pick(4), pick(5), 4 + pick(3)};
    return t;
  }

private:
  std::mt19937 rng;
  int pick(int n) { return static_cast<int>(rng() % unsigned(n)); }
  tf::Name name() {
    const char *const names[] = {"n", "c", "p0", "g", "gs", "lane8", "_k"};
    return names[pick(7)];
  }
};

TEST(TextRoundTrip, RandomLayouts) {
  RandomLayouts gen(2024);
  for (int i = 0; i < 500; ++i) {
    tf::LayoutText t = gen.text();
    std::string printed = tf::to_string(t);
    tf::Result<tf::LayoutText> back = tf::parse_layout_text(printed);
    ASSERT_TRUE(back.ok()) << printed << ": " << back.error().message();
    EXPECT_EQ(*back, t) << printed;
    EXPECT_EQ(tf::to_string(*back), printed);
    tf::Result<Layout> seed = tf::parse_layout(tf::to_seed_string(t.layout));
    ASSERT_TRUE(seed.ok()) << tf::to_seed_string(t.layout);
    EXPECT_EQ(*seed, t.layout) << tf::to_seed_string(t.layout);
  }
}

// --- compile-time literals ---------------------------------------------------

static_assert(tf::layout<"((2,8,8),(4,16)):((4096,512,64),(16,1))"> ==
              Layout{{{2, 8, 8}, {4, 16}}, {{4096, 512, 64}, {16, 1}}});
static_assert(tf::layout<"(3,128)"> == Layout{{3, 128}, {128, 1}});
static_assert(tf::layout<"Layout((4, 2, 8), (16, 8, 1))"> ==
              Layout{{4, 2, 8}, {16, 8, 1}});
static_assert(tf::layout<"[4 8 4; 32 4 1]"> == Layout{{4, 8, 4}, {32, 4, 1}});
static_assert(*tf::size(tf::layout<"((2,8,8),(4,16))">) == 128 * 64);
static_assert(tf::composed_layout<"(8,64):(64,1) | Swizzle(3,4,3)">.swizzle ==
              tf::Swizzle{3, 4, 3});
static_assert(tf::composed_layout<"ComposedLayout(None, p0, Layout(((*g, 4, "
                                  "8, 4),), ((*gs, 32, 4, 1),)))">
                  .offset == Int::symbolic("p0"));
static_assert(tf::parse_layout("(2,8").error().position == 4);
static_assert(tf::parse_layout_text("[2@group 4@warp; 4 1] + 128")->axes[1]
                  .name.view() == "warp");
// The largest texts stay within the compilers' constant-evaluation limits.
static_assert(tf::parse_layout_text(
                  "(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
                  "1,1,1,1@a):(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
                  "1,1,1,1,1,1,1,1,1) + 7 | Swizzle(3,4,3)")
                  .ok());
static_assert(tf::parse_layout("(((((((((((((((2)))))))))))))))").ok());

} // namespace

// Found by the sanitized plugin (test/plugin/malformed/layout_overflow.cpp):
// extents whose product does not fit in 64 bits were multiplied anyway
// (signed overflow). The size is refused and compact strides past the
// overflow have no value.
TEST(TextParse, ExtentsWhoseProductOverflows) {
  tf::Result<tf::Layout> L =
      tf::parse_layout("(9223372036854775807,9223372036854775807)");
  ASSERT_TRUE(L);
  tf::Result<std::int64_t> Size = tf::size(*L);
  ASSERT_FALSE(Size);
  EXPECT_EQ(Size.error().code, tf::Errc::capacity);
  EXPECT_EQ(L->stride.leaf_at(1).value, 1);
  EXPECT_TRUE(L->stride.leaf_at(0).has_value());
  EXPECT_FALSE(tf::parse_layout("(4294967296,4294967296,4294967296)")->stride.leaf_at(0).has_value());
}

// Found by fuzz-layout_fuzzer in CI's sanitized pass: the cosize of
// (4,9223372036854775807) multiplied 3 by the stride of the first mode
// (signed overflow). The cosize and any offset past 64 bits are refused.
TEST(TextParse, OffsetsThatOverflowAreRefused) {
  tf::Result<tf::Layout> L = tf::parse_layout("(4,9223372036854775807)");
  ASSERT_TRUE(L);
  tf::Result<std::int64_t> Cosize = tf::cosize(*L);
  ASSERT_FALSE(Cosize);
  EXPECT_EQ(Cosize.error().code, tf::Errc::capacity);

  tf::Result<tf::Layout> Wide = tf::parse_layout("(4,2):(4611686018427387904,1)");
  ASSERT_TRUE(Wide);
  ASSERT_FALSE(tf::cosize(*Wide));
  tf::Result<std::int64_t> Far = tf::evaluate(*Wide, tf::IntTuple{2, 0});
  ASSERT_FALSE(Far);
  EXPECT_EQ(Far.error().code, tf::Errc::capacity);
  EXPECT_EQ(*tf::evaluate(*Wide, tf::IntTuple{1, 1}), 4611686018427387905);

  // The largest offset that fits, and one past it.
  EXPECT_EQ(*tf::cosize(*tf::parse_layout("(2,1):(9223372036854775806,1)")),
            9223372036854775807);
  EXPECT_FALSE(tf::cosize(*tf::parse_layout("(2,1):(9223372036854775807,1)")));
}
