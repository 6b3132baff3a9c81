#!/usr/bin/env bash
# Installs what tf needs on Debian 12 (run as root) and builds it with CMake
# and ninja into build/. Idempotent: a second run installs nothing and
# rebuilds only what changed. Used by examples/run.sh and test/run.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  clang-22 libclang-22-dev libclang-cpp22-dev llvm-22-dev llvm-22-tools
  cmake ninja-build g++ python3 python3-jsonschema
  libtomlplusplus-dev libfmt-dev googletest libgtest-dev
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

if [[ ! -f build/build.ninja ]]; then
  cmake -S . -B build -G Ninja >/dev/null
fi
cmake --build build
