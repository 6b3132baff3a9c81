// A malformed layout literal does not compile, and the error says what the
// parser expected. clang: one static_assert whose message is the parser's,
// with its values filled in, then the text with a caret under the failing
// byte. The host compiler (g++, no user-generated static_assert messages):
// the message and the text from the failing byte on, in a note.
//
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include %s 2>&1 | FileCheck %s --check-prefix=CLANG --implicit-check-not=error:
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include %s 2>&1 | FileCheck %s --check-prefix=GCC

#include "tf/layout/text.hpp"

// CLANG: error: static assertion failed due to requirement 'result.ok()': tf: malformed layout text: expected ',' or ')' to close the tuple
// CLANG-NEXT: {{^}}    ((2,8 8),(4,16)){{$}}
// CLANG-NEXT: {{^}}          ^{{$}}
// GCC: error:
// GCC: expected {{\\?}}',{{\\?}}' or {{\\?}}'){{\\?}}' to close the tuple
// GCC: text[6]
constexpr tf::Layout missing_comma = tf::layout<"((2,8 8),(4,16))">;

// CLANG: error: static assertion failed due to requirement 'result.ok()': tf: malformed layout text: number does not fit in 64 bits
// GCC: error:
// GCC: number does not fit in 64 bits
constexpr tf::Layout too_large = tf::layout<"(99999999999999999999,2)">;

// CLANG: error: {{.*}}: tf: malformed layout text: axis bindings ('@axis') belong to meshes and shard layouts, not to a layout
// GCC: error:
// GCC: axis bindings ({{\\?}}'@axis{{\\?}}') belong to meshes and shard layouts, not to a layout
constexpr tf::Layout bound = tf::layout<"(2@group,4)">;

// CLANG: error: {{.*}}: tf: malformed layout text: swizzle shift |2| is smaller than its 3 bits; source and target bits would overlap
// CLANG-NEXT: {{^}}    (8,64):(64,1) | Swizzle(3,4,2){{$}}
// CLANG-NEXT: {{^}}                    ^{{$}}
// GCC: error:
// GCC: swizzle shift |{{[{][}]}}| is smaller than its {{[{][}]}} bits
constexpr tf::ComposedLayout overlap =
    tf::composed_layout<"(8,64):(64,1) | Swizzle(3,4,2)">;
