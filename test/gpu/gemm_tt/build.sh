#!/usr/bin/env bash
# test/gpu/gemm_tt/build.sh BUILD_DIR - builds BUILD_DIR/gemm_tt: examples/gemm/tt.cpp
# with this folder's main (user.cpp), linked with the CUDA backend's
# tt.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and where
# the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" tt gemm_tt "$@"
