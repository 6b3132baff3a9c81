#!/usr/bin/env bash
# test/gpu/gemm_batched/build.sh BUILD_DIR - builds BUILD_DIR/gemm_batched:
# examples/gemm/batched.cpp (three GEMMs on rank-3 tensors, TMA boxes of
# rank-3 tensor maps) with user.cpp's main, linked with the CUDA backend's
# batched.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and
# where the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" batched gemm_batched "$@"
