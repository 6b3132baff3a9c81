#!/usr/bin/env bash
# test/gpu/gemm_cluster2/build.sh BUILD_DIR - builds BUILD_DIR/gemm_cluster2:
# the variant cluster2 of examples/gemm/optimal.cpp (clusters of two CTAs
# along M; each CTA loads its own A tile and half of the shared B tile's
# boxes, multicast into both CTAs' rings; examples/gemm/variants.py writes
# it) with gemm_optimal/'s main, linked with the CUDA backend's
# cluster2.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh).
# SASS: 4*HGMMA.64x256x16.F32.BF16 1*UTMALDG.2D$ 4*UTMALDG.2D.MULTICAST 4*UTMASTG.2D
exec "$(dirname "$0")/../gemm_example_build.sh" cluster2 gemm_cluster2 "$@"
