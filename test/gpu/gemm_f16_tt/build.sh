#!/usr/bin/env bash
# test/gpu/gemm_f16_tt/build.sh BUILD_DIR - builds BUILD_DIR/gemm_f16_tt: the
# variant f16_tt of examples/gemm/tt.cpp (f16 operands and output; examples/gemm/variants.py
# writes it) with gemm_tt/'s main, its types substituted likewise, linked
# with the CUDA backend's f16_tt.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh).
# SASS: 4*HGMMA.64x256x16.F32$ 3*UTMALDG.2D 4*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" f16_tt gemm_f16_tt "$@"
