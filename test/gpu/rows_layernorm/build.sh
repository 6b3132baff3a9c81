#!/usr/bin/env bash
# test/gpu/rows_layernorm/build.sh BUILD_DIR - builds BUILD_DIR/rows_layernorm:
# examples/rows/layernorm.cpp with this folder's main (user.cpp), linked with the
# CUDA backend's layernorm.tf.cu (test/gpu/rows_example_build.sh says how).
# SASS: LDG.E.128 STG.E.128 SHFL.BFLY
# These kernels' programs are written twice (docs/backend-cuda.md): ptxas
# counts the checked copy's spills with the rest; the unchecked copy alone
# spills nothing (test/plugin/emit/rows.test).
# SPILLS: layernorm_cta layernorm_rows
exec "$(dirname "$0")/../rows_example_build.sh" layernorm rows_layernorm "$@"
