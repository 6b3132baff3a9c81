#!/usr/bin/env bash
# test/gpu/gemm_tn/build.sh BUILD_DIR - builds BUILD_DIR/gemm_tn: examples/gemm/tn.cpp
# with this folder's main (user.cpp), linked with the CUDA backend's
# tn.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and where
# the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" tn gemm_tn "$@"
