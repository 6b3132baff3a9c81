#!/usr/bin/env bash
# test/gpu/rows_rmsnorm/build.sh BUILD_DIR - builds BUILD_DIR/rows_rmsnorm:
# examples/rows/rmsnorm.cpp with this folder's main (user.cpp), linked with the
# CUDA backend's rmsnorm.tf.cu (test/gpu/rows_example_build.sh says how).
# SASS: LDG.E.128 STG.E.128 SHFL.BFLY
exec "$(dirname "$0")/../rows_example_build.sh" rmsnorm rows_rmsnorm "$@"
