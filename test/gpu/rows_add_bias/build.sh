#!/usr/bin/env bash
# test/gpu/rows_add_bias/build.sh BUILD_DIR - builds BUILD_DIR/rows_add_bias:
# examples/rows/add_bias.cpp with this folder's main (user.cpp), linked with the
# CUDA backend's add_bias.tf.cu (test/gpu/rows_example_build.sh says how).
# SASS: LDG.E.128 STG.E.128
exec "$(dirname "$0")/../rows_example_build.sh" add_bias rows_add_bias "$@"
