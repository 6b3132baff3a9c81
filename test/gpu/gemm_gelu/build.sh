#!/usr/bin/env bash
# test/gpu/gemm_gelu/build.sh BUILD_DIR - builds BUILD_DIR/gemm_gelu: examples/gemm/gelu.cpp
# with this folder's main (user.cpp), linked with the CUDA backend's
# gelu.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and where
# the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" gelu gemm_gelu "$@"
