#!/usr/bin/env bash
# test/gpu/gemm_relu/build.sh BUILD_DIR - builds BUILD_DIR/gemm_relu: examples/gemm/relu.cpp
# with this folder's main (user.cpp), linked with the CUDA backend's
# relu.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and where
# the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" relu gemm_relu "$@"
