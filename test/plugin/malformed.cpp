// Garbage in tf attributes gets diagnostics, never a crash (`not` fails on
// a crash). One file per case: a parse error can swallow what follows.
// RUN: split-file %s %t
// RUN: not %tf-cc1 -plugin-arg-tf report %t/expr.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/trailing_comma.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/undeclared_call.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/nested.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/type_argument.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/empty_layout.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/deep_layout.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/stacked.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/unclosed.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/runtime_nested.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/null_statement.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/pack.cpp 2>&1 | FileCheck %s
// RUN: not %tf-cc1 -plugin-arg-tf report %t/member.cpp 2>&1 | FileCheck %s
// A constexpr lambda is a fine argument.
// RUN: %tf-cc1 -verify %t/lambda.cpp
// CHECK: error:

//--- expr.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
[[tf::mesh(1 +)]] int a = 1;
//--- trailing_comma.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
[[tf::mesh(m,)]] int b = 1;
//--- undeclared_call.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
[[tf::mesh(undeclared_function())]] int c = 1;
//--- nested.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
[[tf::mesh([[tf::mesh(m)]] m)]] int d = 1;
//--- type_argument.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
[[tf::kernel(tf::Mesh)]] void e();
//--- empty_layout.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
[[tf::layout("")]] int f = 1;
//--- deep_layout.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
[[tf::layout("((((((((((((((((((((1))))))))))))))))))))")]] int g = 1;
//--- stacked.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
[[tf::mesh(m)]] [[tf::mesh]] [[mesh]] void h();
//--- unclosed.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
[[tf::mesh(m]] int j = 1;
//--- lambda.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
// expected-no-diagnostics
void k(int x) { [[tf::mesh([] { return m; }())]] x = 1; }
//--- runtime_nested.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
void k(int x) { [[tf::mesh(x)]] { [[tf::mesh(x)]] { } } }
//--- null_statement.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
void k(int x) { [[tf::layout(x)]]; }
//--- pack.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
template <class... Ts> [[tf::kernel(Ts::value...)]] void i();
struct V { static constexpr int value = 1; };
void u() { i<V, V>(); }
//--- member.cpp
#include "tf/layout/mesh.hpp"
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
struct S { tf::Mesh mm; void f() { [[tf::mesh(mm)]] {} } };
