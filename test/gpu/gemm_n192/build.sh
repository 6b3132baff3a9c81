#!/usr/bin/env bash
# test/gpu/gemm_n192/build.sh BUILD_DIR - builds BUILD_DIR/gemm_n192: the
# variant n192 of examples/gemm/optimal.cpp (a 128 x 192 output tile, WGMMA
# N = 192, four stages; examples/gemm/variants.py writes it) with
# gemm_optimal/'s main, linked with the CUDA backend's n192.tf.cu and cuBLAS
# (test/gpu/gemm_example_build.sh).
# SASS: 4*HGMMA.64x192x16.F32.BF16 4*UTMALDG.2D 3*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" n192 gemm_n192 "$@"
