// An unknown plugin argument stops the compilation, in both spellings.
// RUN: not %clangxx -std=c++20 -fsyntax-only -fplugin=%tf_plugin -fplugin-arg-tf-foo %s 2>&1 | FileCheck %s
// RUN: not %clang_cc1 -std=c++20 -fsyntax-only -load %tf_plugin -add-plugin tf -plugin-arg-tf foo %s 2>&1 | FileCheck %s
// RUN: not %clang_cc1 -std=c++20 -fsyntax-only -load %tf_plugin -add-plugin tf -plugin-arg-tf report -plugin-arg-tf bar=1 %s 2>&1 | FileCheck %s --check-prefix=VALUE
// CHECK: error: unknown tf plugin argument 'foo'; known arguments: report
// VALUE: error: unknown tf plugin argument 'bar=1'; known arguments: report
// -verify cannot see it: the action stops before the source is read.
int main() {}
