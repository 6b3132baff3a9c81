#!/usr/bin/env bash
# test/gpu/gemm_nsplit/build.sh BUILD_DIR - builds BUILD_DIR/gemm_nsplit: the
# variant nsplit of examples/gemm/optimal.cpp (its 128 x 256 tile split
# along N: each consumer warpgroup holds two m64n128 accumulator blocks side
# by side; examples/gemm/variants.py writes it) with gemm_optimal/'s main,
# linked with the CUDA backend's nsplit.tf.cu and cuBLAS
# (test/gpu/gemm_example_build.sh).
# SASS: 8*HGMMA.64x128x16.F32.BF16 5*UTMALDG.2D 4*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" nsplit gemm_nsplit "$@"
