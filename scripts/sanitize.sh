#!/usr/bin/env bash
# Builds the whole project with AddressSanitizer and UndefinedBehaviorSanitizer
# (-DCLOTHFIT_SANITIZE=ON, RelWithDebInfo) in a build directory of its own and runs every
# GoogleTest suite through CTest; any sanitizer report fails the run. Left out: the two
# FitRecovery tests (494 of the 793 test-seconds the suites took under the sanitizers on
# 2026-11-27; they run the fitting code the other fitting tests run, for longer), and whatever
# SANITIZE_EXCLUDE names (a CTest regular expression). Tests that need ../shared skip when it is
# absent.
#
#   scripts/sanitize.sh
#   SANITIZE_BUILD_DIR=/tmp/asan CXX=clang++ scripts/sanitize.sh
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${SANITIZE_BUILD_DIR:-build-sanitize}
exclude='^FitRecovery\.'
if [[ -n "${SANITIZE_EXCLUDE:-}" ]]; then
  exclude="$exclude|$SANITIZE_EXCLUDE"
fi

echo "sanitize: building every test suite with -fsanitize=address,undefined in $build_dir" >&2
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCLOTHFIT_SANITIZE=ON \
  -DCLOTHFIT_BUILD_TESTS=ON -DCLOTHFIT_BUILD_BENCH=OFF >/dev/null
cmake --build "$build_dir" -j "$(nproc)" >/dev/null

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" -E "$exclude"
echo "sanitize: every suite passed with no sanitizer report (excluded: $exclude)" >&2
