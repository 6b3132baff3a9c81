#!/usr/bin/env bash
# test/gpu/gemm_bias_gelu/build.sh BUILD_DIR - builds BUILD_DIR/gemm_bias_gelu: examples/gemm/bias_gelu.cpp
# with this folder's main (user.cpp), linked with the CUDA backend's
# bias_gelu.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and where
# the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" bias_gelu gemm_bias_gelu "$@"
