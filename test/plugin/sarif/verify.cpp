// With sarif=FILE, -verify still sees every diagnostic (the log's consumer
// passes them on and keeps the client's counts), and the log has them too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %tf-cc1 -verify -Wunused-variable -plugin-arg-tf sarif=%t/verify.sarif %s
// RUN: %python %S/summarize.py %t/verify.sarif | FileCheck %s
// RUN: %python %S/../../cli/validate_json.py %S/../../../docs/schemas/sarif.schema.json %t/verify.sarif

// CHECK:      result clang:{{[0-9]+}} error {{.*}}verify.cpp:[[#@LINE+2]]:18-[[#@LINE+2]]:22 use of undeclared identifier 'nope'{{$}}
// CHECK-NEXT: result clang:-Wunused-variable warning {{.*}}verify.cpp:[[#@LINE+3]]:7-[[#@LINE+3]]:8 unused variable 'x'{{$}}
int g() { return nope; } // expected-error {{use of undeclared identifier 'nope'}}
[[maybe_unused]] static void h() {
  int x = 0; // expected-warning {{unused variable 'x'}}
}
