// An unknown plugin argument stops the compilation, in both spellings; a
// warning-group argument must name one of tf's groups.
// RUN: not %clangxx -std=c++20 -fsyntax-only -fplugin=%tf_plugin -fplugin-arg-tf-foo %s 2>&1 | FileCheck %s
// RUN: not %clang_cc1 -std=c++20 -fsyntax-only -load %tf_plugin -add-plugin tf -plugin-arg-tf foo %s 2>&1 | FileCheck %s
// RUN: not %clang_cc1 -std=c++20 -fsyntax-only -load %tf_plugin -add-plugin tf -plugin-arg-tf report -plugin-arg-tf bar=1 %s 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not %clang_cc1 -std=c++20 -fsyntax-only -load %tf_plugin -add-plugin tf -plugin-arg-tf Wno-capacity-bogus %s 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: %clang_cc1 -std=c++20 -fsyntax-only -load %tf_plugin -add-plugin tf -plugin-arg-tf Wno-capacity -plugin-arg-tf Werror=capacity-smem -plugin-arg-tf Wno-error=capacity -plugin-arg-tf Wcapacity-l2 %s
// CHECK: error: unknown tf plugin argument 'foo'; known arguments: report, dump-hir, dump-hir=json, targets-dir=DIR, sarif=FILE, emit=DIR, emit-debug-waits, W<group>, Wno-<group>, Werror=<group>, Wno-error=<group> with <group> one of capacity, capacity-clusters, capacity-l2, capacity-registers, capacity-smem [tf:plugin-unknown-argument]
// VALUE: error: unknown tf plugin argument 'bar=1'; known arguments: report
// GROUP: error: unknown tf plugin argument 'Wno-capacity-bogus'
// -verify cannot see it: the action stops before the source is read.
int main() {}
