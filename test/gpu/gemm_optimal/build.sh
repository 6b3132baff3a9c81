#!/usr/bin/env bash
# test/gpu/gemm_optimal/build.sh BUILD_DIR - builds BUILD_DIR/gemm_optimal: examples/gemm/optimal.cpp
# with this folder's main (user.cpp), linked with the CUDA backend's
# optimal.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and where
# the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" optimal gemm_optimal "$@"
