#!/usr/bin/env bash
# test/gpu/gemm_alpha_beta/build.sh BUILD_DIR - builds BUILD_DIR/gemm_alpha_beta: examples/gemm/alpha_beta.cpp
# with this folder's main (user.cpp), linked with the CUDA backend's
# alpha_beta.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and where
# the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" alpha_beta gemm_alpha_beta "$@"
