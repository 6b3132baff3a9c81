// Before C++20 <tf/tf.hpp> is one #error that says what is needed, with clang
// and with g++, and nothing else.
//
// RUN: not %clangxx -std=c++17 -fsyntax-only -I %tf_include %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %gxx -std=c++17 -fsyntax-only -I %tf_include %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include %s
// RUN: %gxx -std=c++20 -fsyntax-only -I %tf_include %s
#include <tf/tf.hpp>

// CHECK: error: {{(#error )?}}"tf needs C++20: compile with -std=c++20 (in CMake, link tf::headers, which requires cxx_std_20)"

int main() {}
