#!/usr/bin/env bash
# test/gpu/gemm_m256/build.sh BUILD_DIR - builds BUILD_DIR/gemm_m256: the
# variant m256 of examples/gemm/optimal.cpp (a 256 x 128 output tile: each
# consumer warpgroup holds two m64n128 accumulator blocks, one above the
# other; examples/gemm/variants.py writes it) with gemm_optimal/'s main,
# linked with the CUDA backend's m256.tf.cu and cuBLAS
# (test/gpu/gemm_example_build.sh).
# SASS: 8*HGMMA.64x128x16.F32.BF16 3*UTMALDG.2D 2*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" m256 gemm_m256 "$@"
