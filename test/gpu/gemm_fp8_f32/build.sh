#!/usr/bin/env bash
# test/gpu/gemm_fp8_f32/build.sh BUILD_DIR - builds BUILD_DIR/gemm_fp8_f32: the
# variant fp8_f32 of examples/gemm/fp8.cpp (the scaled f32 accumulator out
# through f32_out.cpp's staged tile of eight float panels, two stages of
# rings; examples/gemm/variants.py writes it) with gemm_fp8/'s main, its
# output type substituted likewise, linked with the CUDA backend's
# fp8_f32.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh).
# SASS: 4*QGMMA.64x256x32.F32.E4M3.E4M3 2*UTMALDG.2D 8*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" fp8_f32 gemm_fp8_f32 "$@"
