#!/usr/bin/env bash
# test/gpu/gemm_n128/build.sh BUILD_DIR - builds BUILD_DIR/gemm_n128: the
# variant n128 of examples/gemm/optimal.cpp (a 128 x 128 output tile, WGMMA
# N = 128, four stages; examples/gemm/variants.py writes it) with
# gemm_optimal/'s main, linked with the CUDA backend's n128.tf.cu and cuBLAS
# (test/gpu/gemm_example_build.sh).
# SASS: 4*HGMMA.64x128x16.F32.BF16 3*UTMALDG.2D 2*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" n128 gemm_n128 "$@"
