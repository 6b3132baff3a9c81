#!/usr/bin/env bash
# test/gpu/gemm_f16_nt/build.sh BUILD_DIR - builds BUILD_DIR/gemm_f16_nt: the
# variant f16_nt of examples/gemm/nt.cpp (f16 operands and output; examples/gemm/variants.py
# writes it) with gemm_nt/'s main, its types substituted likewise, linked
# with the CUDA backend's f16_nt.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh).
# SASS: 4*HGMMA.64x256x16.F32$ 2*UTMALDG.2D 4*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" f16_nt gemm_f16_nt "$@"
