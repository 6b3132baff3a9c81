#!/usr/bin/env bash
# test/gpu/gemm_f16_f32/build.sh BUILD_DIR - builds BUILD_DIR/gemm_f16_f32: the
# variant f16_f32 of examples/gemm/f32_out.cpp (f16 operands, the f32
# accumulator out; examples/gemm/variants.py writes it) with gemm_f32_out/'s
# main, its input type substituted likewise, linked with the CUDA backend's
# f16_f32.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh).
# SASS: 4*HGMMA.64x256x16.F32$ 5*UTMALDG.2D 8*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" f16_f32 gemm_f16_f32 "$@"
