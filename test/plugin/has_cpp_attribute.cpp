// __has_cpp_attribute(tf::mesh) is 1 with the plugin and 0 without, so the
// headers can leave to the plugin the checks it reports better.
// RUN: %tf-cc1 -verify %s -DEXPECTED=1
// RUN: %clang_cc1 -std=c++20 -fsyntax-only -verify %s -DEXPECTED=0
// expected-no-diagnostics
static_assert(__has_cpp_attribute(tf::kernel) == EXPECTED);
static_assert(__has_cpp_attribute(tf::mesh) == EXPECTED);
static_assert(__has_cpp_attribute(tf::layout) == EXPECTED);
