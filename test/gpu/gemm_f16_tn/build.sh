#!/usr/bin/env bash
# test/gpu/gemm_f16_tn/build.sh BUILD_DIR - builds BUILD_DIR/gemm_f16_tn: the
# variant f16_tn of examples/gemm/tn.cpp (f16 operands and output; examples/gemm/variants.py
# writes it) with gemm_tn/'s main, its types substituted likewise, linked
# with the CUDA backend's f16_tn.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh).
# SASS: 4*HGMMA.64x256x16.F32$ 6*UTMALDG.2D 4*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" f16_tn gemm_f16_tn "$@"
