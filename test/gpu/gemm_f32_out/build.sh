#!/usr/bin/env bash
# test/gpu/gemm_f32_out/build.sh BUILD_DIR - builds BUILD_DIR/gemm_f32_out: examples/gemm/f32_out.cpp
# with this folder's main (user.cpp), linked with the CUDA backend's
# f32_out.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and where
# the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" f32_out gemm_f32_out "$@"
