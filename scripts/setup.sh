#!/usr/bin/env bash
# Installs the Debian packages clothfit needs (when any is missing) and builds it in Release into
# ./build. Safe to run again: apt is skipped when everything is installed, the build is incremental.
#
#   scripts/setup.sh            # install + configure + build
#   BUILD_DIR=out/b scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libeigen3-dev libceres-dev nlohmann-json3-dev
          libboost-program-options-dev coinor-libipopt-dev libgtest-dev clang
          libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

build_dir=${BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
