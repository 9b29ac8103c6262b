#!/usr/bin/env bash
# Runs the whole test suite on the Release build made by scripts/setup.sh:
#   1. the test suites under AddressSanitizer + UndefinedBehaviorSanitizer (scripts/sanitize.sh,
#      its own build folder; the two FitRecovery tests left out there),
#   2. bounded libFuzzer runs of the Motive CSV and OBJ readers (scripts/fuzz.sh, FUZZ_SECONDS,
#      60 s each),
#   3. every GoogleTest suite through CTest (last, so its summary is the closing line).
# Tests that need ../shared (the Motive fixtures) skip with a message when it is absent.
#
#   scripts/setup.sh && scripts/test.sh
set -uo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
status=0
scripts/sanitize.sh || { echo "test: sanitizer run of the test suites FAILED" >&2; status=1; }
scripts/fuzz.sh || { echo "test: fuzzing the readers FAILED" >&2; status=1; }
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" || status=1
exit $status
