#!/usr/bin/env bash
# Installs what tf needs on Debian 12 (run as root) and builds it with CMake
# and ninja into build/. Idempotent: a second run installs nothing and
# rebuilds only what changed. Used by examples/run.sh and test/run.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  clang-22 clangd-22 clang-tidy-22 libclang-22-dev libclang-cpp22-dev llvm-22-dev llvm-22-tools
  cmake ninja-build make g++ python3 python3-jsonschema python3-pip
  libtomlplusplus-dev libfmt-dev googletest libgtest-dev
  # LLVM's linker: links tf's Clang- and LLVM-based programs several times
  # faster than GNU ld (CMakeLists.txt, TF_USE_LLD)
  lld
  # the sanitized build and the fuzzers (test/run.sh): clang 22's libFuzzer
  # and sanitizer runtimes; psutil gives lit its per-test timeout
  libclang-rt-22-dev python3-psutil
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "tf setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# cuobjdump and nvdisasm (CUDA 13, from PyPI): the SASS checks of the GPU
# tests (test/gpu/check_ptxas.py, test/plugin/emit/nvcc.test) read the
# compiled kernels with them, and fail without them where nvcc exists. pip
# puts the binaries in nvidia/cu13/bin of its target; build/cuda-tools/bin
# links to them and ctest and lit put that folder on the tools' search path
# (TF_CUDA_TOOLS). Skipped where CUDA is not installed (those tests skip);
# nothing is installed when the pinned version is already there.
cuda_tools_version=13.2.86
cuda_tools=build/cuda-tools
if [[ -x ${NVCC:-/usr/local/cuda/bin/nvcc} ]]; then
  have() { "$cuda_tools/bin/$1" --version 2>/dev/null | grep -q "V$cuda_tools_version"; }
  if ! have cuobjdump || ! have nvdisasm; then
    echo "tf setup: installing cuobjdump and nvdisasm $cuda_tools_version (pip) into $cuda_tools"
    rm -rf "$cuda_tools"
    pip=(python3 -m pip)
    "${pip[@]}" --version >/dev/null 2>&1 || pip=(/usr/bin/python3 -m pip)
    PIP_DISABLE_PIP_VERSION_CHECK=1 "${pip[@]}" install --quiet --no-deps \
      --root-user-action=ignore --target "$cuda_tools/pip" \
      "nvidia-cuda-cuobjdump==$cuda_tools_version" "nvidia-cuda-nvdisasm==$cuda_tools_version"
    mkdir -p "$cuda_tools/bin"
    for tool in cuobjdump nvdisasm; do
      found=$(find "$cuda_tools/pip" -type f -name "$tool" -perm -u+x | head -1)
      [[ -n $found ]] || { echo "tf setup: no $tool in the $tool wheel" >&2; exit 1; }
      ln -sfr "$found" "$cuda_tools/bin/$tool"
    done
    have cuobjdump && have nvdisasm ||
      { echo "tf setup: $cuda_tools/bin/cuobjdump or nvdisasm does not run" >&2; exit 1; }
  fi
fi

if [[ ! -f build/build.ninja ]]; then
  cmake -S . -B build -G Ninja >/dev/null
fi
cmake --build build
