#!/bin/sh
# Native AMX against the emulation, bit for bit, on the AMX host (docs/amx.md).
# Builds test/device/amx_exact.cpp three ways with g++ -- native (-mamx-*),
# emulated, and emulated with -mavx512f -mfma (the emulation must not depend
# on FMA contraction or vector code generation) -- runs each, and compares
# the result files byte for byte.
#   usage: test/device/amx_exact.sh [REPO_ROOT [OUTDIR]]
set -u
root=${1:-.}
out=${2:-.}
cxx=${CXX:-g++}
bin=$(mktemp -d)
src=$root/test/device/amx_exact.cpp
common="-std=c++20 -O2 -Wall -I$root/runtime/include -I$root/test/runtime/amx"
"$cxx" --version | head -n 1
grep -o -w -E 'amx_(tile|bf16|int8)' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
build() { # name flags...
  name=$1; shift
  timeout 300 "$cxx" $common "$@" "$src" -o "$bin/$name" || { echo "build $name failed"; exit 1; }
}
build native -mamx-tile -mamx-bf16 -mamx-int8 -mavx512f -mavx512bf16
build emulated
build emulated_fma -mavx512f -mfma
status=0
for name in native emulated emulated_fma; do
  timeout 300 "$bin/$name" "$out/$name.bin" || { echo "$name failed"; status=1; }
done
for name in emulated emulated_fma; do
  if cmp -s "$out/native.bin" "$out/$name.bin"; then
    echo "native == $name: bit-identical ($(wc -c < "$out/native.bin") bytes)"
  else
    echo "native != $name: $(cmp -l "$out/native.bin" "$out/$name.bin" | wc -l) bytes differ"
    status=1
  fi
done
exit $status
