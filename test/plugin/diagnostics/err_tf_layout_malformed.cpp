// RUN: %tf-cc1 -verify %s
// A layout string must be text tf's parser reads; the error points at the
// place in the string where the parser stopped, with the parser's message.

[[tf::layout("(4,32")]] int a = 1;       // expected-error-re {{malformed layout in 'tf::layout': expected ',' or ')' {{.*}}}}
[[tf::layout("(4,32):(1)")]] int b = 1;  // expected-error {{malformed layout in 'tf::layout': expected ',': the shape has more modes here}}
[[tf::layout(L"(4,32)")]] int c = 1;     // expected-error {{malformed layout in 'tf::layout': a layout string must be an ordinary string literal}}
[[tf::layout("(4,32):(32,1)")]] int d = 1;
[[tf::layout("[2@group 4@warp; 32 1] + 128")]] int e = 1;
