// A fact tree that cannot be loaded is one error at the first kernel that
// names a target, with the loader's first finding.
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin \
// RUN:   -fplugin-arg-tf-targets-dir=%t.missing -Xclang -verify=missing %s
// RUN: rm -rf %t.bad && mkdir -p %t.bad
// RUN: printf 'schema = "tf.device/v1"\n[spec]\nid = 3\n' > %t.bad/broken.toml
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin \
// RUN:   -fplugin-arg-tf-targets-dir=%t.bad -Xclang -verify=broken %s
// RUN: env TF_TARGETS_DIR=%t.bad %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin \
// RUN:   -Xclang -verify=broken %s
#include <tf/tf.hpp>

// missing-error-re@+2 {{cannot load the target facts of 'nvidia.h200_sxm': {{.*}}.missing: error: cannot open targets directory: No such file or directory [tf:target-facts]}}
// broken-error-re@+1 {{cannot load the target facts of 'nvidia.h200_sxm': {{.*}}broken.toml:2:1: error: missing key 'spec.schema' [tf:target-facts]}}
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 1))]]
void first() {}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 1))]]
void second() {}
