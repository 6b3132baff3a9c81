#!/usr/bin/env bash
# test/gpu/gemm_fp8_f16/build.sh BUILD_DIR - builds BUILD_DIR/gemm_fp8_f16: the
# variant fp8_f16 of examples/gemm/fp8.cpp (an f16 output; examples/gemm/variants.py
# writes it) with gemm_fp8/'s main, its types substituted likewise, linked
# with the CUDA backend's fp8_f16.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh).
# SASS: 4*QGMMA.64x256x32.F32.E4M3.E4M3 2*UTMALDG.2D 4*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" fp8_f16 gemm_fp8_f16 "$@"
