#!/usr/bin/env bash
# Builds the Motive CSV importer tests (mocap_tests) with AddressSanitizer and
# UndefinedBehaviorSanitizer (-DCLOTHFIT_SANITIZE=ON) in a build directory of their own and runs
# them; any sanitizer report fails the run. Tests that need ../shared skip when it is absent.
#
#   scripts/sanitize_mocap.sh
#   SANITIZE_BUILD_DIR=/tmp/asan CXX=clang++ scripts/sanitize_mocap.sh
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${SANITIZE_BUILD_DIR:-build-sanitize-mocap}

echo "sanitize_mocap: building mocap_tests with -fsanitize=address,undefined in $build_dir" >&2
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLOTHFIT_SANITIZE=ON \
  -DCLOTHFIT_BUILD_TESTS=ON -DCLOTHFIT_BUILD_BENCH=OFF >/dev/null
cmake --build "$build_dir" --target mocap_tests -j "$(nproc)" >/dev/null

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
"$build_dir/tests/mocap_tests" --gtest_brief=1
echo "sanitize_mocap: mocap_tests passed with no sanitizer report" >&2
