#!/usr/bin/env bash
# test/gpu/rows_layernorm/build.sh BUILD_DIR - builds BUILD_DIR/rows_layernorm:
# examples/rows/layernorm.cpp with this folder's main (user.cpp), linked with the
# CUDA backend's layernorm.tf.cu (test/gpu/rows_example_build.sh says how).
# SASS: LDG.E.128 STG.E.128 SHFL.BFLY
# The whole-row kernels spill only in the checked copy of their program
# (docs/backend-cuda.md): ptxas counts it with the unchecked one.
# SPILLS: layernorm_cta
exec "$(dirname "$0")/../rows_example_build.sh" layernorm rows_layernorm "$@"
