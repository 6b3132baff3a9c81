#!/usr/bin/env bash
# test/gpu/gemm_fp8_e5m2/build.sh BUILD_DIR - builds BUILD_DIR/gemm_fp8_e5m2: the
# variant fp8_e5m2 of examples/gemm/fp8.cpp (e5m2 operands; examples/gemm/variants.py
# writes it) with gemm_fp8/'s main, its types substituted likewise, linked
# with the CUDA backend's fp8_e5m2.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh).
# SASS: 4*QGMMA.64x256x32.F32.E5M2.E5M2 2*UTMALDG.2D 4*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" fp8_e5m2 gemm_fp8_e5m2 "$@"
