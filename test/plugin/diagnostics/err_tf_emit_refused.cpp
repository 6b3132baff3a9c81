// With -fplugin-arg-tf-emit=DIR, a kernel that cannot be lowered is an error
// at the kernel listing why (here: it has no mesh scope to make a role of),
// and no file is written. Without emit= the same kernel is fine.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin %s
#include <tf/tf.hpp>

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 1),
             tf::topology("thread", 128))]]
// expected-error-re@+1 {{kernel 'nothing' cannot be emitted as CUDA, so {{.*}}err_tf_emit_refused.tf.cu is not written:{{.*}}no mesh scope of threads{{.*}}}}
void nothing() {}
