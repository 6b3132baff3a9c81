// A plain C++ error: `tf hir` reports it as clang++ does and exits 1.
int f() { return undeclared_name; }
