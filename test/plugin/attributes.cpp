// Every place the attributes may stand, accepted without a word, and stored
// on the AST as AnnotateAttr "tf.kernel" / "tf.mesh" / "tf.layout".
// RUN: %tf-cc1 -verify %s
// RUN: %tf-cc1 -ast-dump -ast-dump-filter=ex::kernel %s \
// RUN:   | grep -E 'FunctionDecl|ParmVarDecl|VarDecl|AttributedStmt|AnnotateAttr|CompoundStmt|BinaryOperator' \
// RUN:   | FileCheck %s
// expected-no-diagnostics
#include "tf/layout/mesh.hpp"
#include "tf/layout/composed_layout.hpp"
#include "tf/layout/shard_layout.hpp"
#include "tf/layout/topology.hpp"

namespace ex {
constexpr tf::Mesh threads = tf::mesh("thread", tf::IntTuple{3, 128}, "warpgroup", "participant");
constexpr tf::Layout tile = tf::make_layout(tf::IntTuple{8, 64});
constexpr tf::ComposedLayout swizzled{tf::Swizzle{3, 4, 3}, tf::Int(0), tile};
constexpr tf::ShardLayout shard{};

struct Staged {
  [[tf::layout(tile)]] float values[8 * 64]; // a field
};

[[tf::kernel]] void kernel([[tf::layout(swizzled)]] int p); // a parameter
[[tf::kernel(tf::topology("cta", 132), tf::topology("thread", 384))]]
void kernel([[tf::layout(swizzled)]] int p) {
  [[tf::mesh(threads)]] { p += 1; }                 // a compound statement
  [[tf::mesh(threads)]] int x = p;                  // a declaration
  [[tf::mesh(ex::threads)]] x = 3;                  // an expression statement
  [[tf::layout(tile)]] int y = x;                   // layout on a declaration
  [[tf::layout(shard)]] y = x;                      // and on a statement
  [[tf::layout("(8,64):(64,1) | Swizzle(3,4,3)")]] int z = y;
  [[tf::mesh(threads), tf::layout(tile)]] z = y;    // both on one statement
  [[tf::mesh(tf::mesh("thread", tf::IntTuple{32}))]] { (void)z; }
}
} // namespace ex

// CHECK: FunctionDecl {{.*}} kernel 'void (int)'
// CHECK-NEXT: ParmVarDecl {{.*}} p 'int'
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.layout"
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.kernel"
// CHECK: FunctionDecl {{.*}} prev {{.*}} kernel 'void (int)'
// CHECK-NEXT: ParmVarDecl {{.*}} p 'int'
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.layout"
// CHECK-NEXT: CompoundStmt
// CHECK-NEXT: AttributedStmt
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.mesh"
// CHECK-NEXT: CompoundStmt
// CHECK-NEXT: VarDecl {{.*}} x 'int'
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.mesh"
// CHECK-NEXT: AttributedStmt
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.mesh"
// CHECK-NEXT: BinaryOperator {{.*}} '='
// CHECK-NEXT: VarDecl {{.*}} y 'int'
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.layout"
// CHECK-NEXT: AttributedStmt
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.layout"
// CHECK-NEXT: BinaryOperator {{.*}} '='
// CHECK-NEXT: VarDecl {{.*}} z 'int'
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.layout"
// CHECK-NEXT: AttributedStmt
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.mesh"
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.layout"
// CHECK-NEXT: BinaryOperator {{.*}} '='
// CHECK-NEXT: AttributedStmt
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.mesh"
// CHECK-NEXT: CompoundStmt
// CHECK-NEXT: AnnotateAttr {{.*}} "tf.kernel"

