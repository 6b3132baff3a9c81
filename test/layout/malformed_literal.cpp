// A malformed layout literal does not compile, and the error says what the
// parser expected: with clang and with the host compiler (g++).
//
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include %s 2>&1 | FileCheck %s
// RUN: not %host_cxx -std=c++20 -fsyntax-only -I %tf_include %s 2>&1 | FileCheck %s

#include "tf/layout/text.hpp"

// CHECK: error:
// CHECK: expected {{\\?}}',{{\\?}}' or {{\\?}}'){{\\?}}' to close the tuple
// CHECK: text[6]
constexpr tf::Layout missing_comma = tf::layout<"((2,8 8),(4,16))">;

// CHECK: error:
// CHECK: number does not fit in 64 bits
constexpr tf::Layout too_large = tf::layout<"(99999999999999999999,2)">;

// CHECK: error:
// CHECK: axis bindings ({{\\?}}'@axis{{\\?}}') belong to meshes and shard layouts, not to a layout
constexpr tf::Layout bound = tf::layout<"(2@group,4)">;

// CHECK: error:
// CHECK: swizzle shift |{{[{][}]}}| is smaller than its {{[{][}]}} bits
constexpr tf::ComposedLayout overlap =
    tf::composed_layout<"(8,64):(64,1) | Swizzle(3,4,2)">;
