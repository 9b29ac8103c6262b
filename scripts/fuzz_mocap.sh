#!/usr/bin/env bash
# Fuzzes the Motive CSV reader: builds tests/fuzz/motive_csv_fuzzer with clang and
# -fsanitize=fuzzer,address,undefined in a build directory of its own, makes a seed corpus from the
# real exports in ../shared/fixtures/motive (copied into a temporary directory, never into the
# repository) plus a few small files, and runs libFuzzer for a bounded time. Exits non-zero on any
# crash, leak, timeout or sanitizer report; the offending input is kept in
# $BUILD_DIR/fuzz-artifacts/.
#
#   scripts/fuzz_mocap.sh                      # 60 s
#   FUZZ_SECONDS=600 scripts/fuzz_mocap.sh
#   FUZZ_BUILD_DIR=/tmp/fuzz CLOTHFIT_SHARED_DIR=/path/to/shared scripts/fuzz_mocap.sh
#
# Needs clang and libclang-rt-14-dev (scripts/setup.sh installs them); no network.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${FUZZ_SECONDS:-60}
build_dir=${FUZZ_BUILD_DIR:-$root/build-fuzz-mocap}
shared_dir=${CLOTHFIT_SHARED_DIR:-$root/../shared}
jobs=$(nproc)

if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "fuzz_mocap: FUZZ_SECONDS must be a whole number of seconds >= 1, got '$seconds'" >&2
  exit 2
fi
if ! command -v clang++ >/dev/null; then
  echo "fuzz_mocap: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2
  exit 2
fi

echo "fuzz_mocap: building motive_csv_fuzzer in $build_dir" >&2
cmake -S tests/fuzz -B "$build_dir" -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" --target motive_csv_fuzzer -j "$jobs" >/dev/null
fuzzer="$build_dir/motive_csv_fuzzer"

work=$(mktemp -d "${TMPDIR:-/tmp}/clothfit-fuzz-mocap.XXXXXX")
trap 'rm -rf "$work"' EXIT
corpus="$work/corpus"
artifacts="$work/artifacts"
mkdir -p "$corpus" "$artifacts"

# Seeds: the real exports (whole, and cut down to a few complete frames so that mutations stay
# small and still reach the data rows), plus small files for the other branches of the format.
fixtures="$shared_dir/fixtures/motive"
if [ -d "$fixtures" ]; then
  for f in "$fixtures"/*.csv; do
    name=$(basename "$f" .csv)
    cp "$f" "$corpus/$name.csv"
    head -n 12 "$f" | sed -e 's/Total Exported Frames,[0-9]*/Total Exported Frames,5/' \
      >"$corpus/$name-5-frames.csv"
  done
else
  echo "fuzz_mocap: $fixtures is absent; seeding with the small files only" >&2
fi
printf 'Format Version,1.23,Take Name,small,Export Frame Rate,100,Total Exported Frames,3,Length Units,Millimeters\n\n,Type,Marker,Marker,Marker,Marker,Marker,Marker\n,Name,A,A,A,B,B,B\n,ID,1,1,1,2,2,2\n,,Position,Position,Position,Position,Position,Position\nFrame,Time (Seconds),X,Y,Z,X,Y,Z\n0,0.00,1,2,3,4,5,6\n1,0.01,1.5,2.5,3.5,,,\n2,0.02,2,3,4,7,8,9\n' >"$corpus/small.csv"
printf '\xef\xbb\xbfFormat Version,1.24,Export Frame Rate,60,Rotation Type,XYZ\r\n\r\n,,,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body Marker,Rigid Body Marker,Rigid Body Marker,Rigid Body Marker\r\n,,,"S","S","S","S","S","S","S:M1","S:M1","S:M1","S:M1"\r\n,,,P,P,P,P,P,P,P,P,P,P\r\n,,,Rotation,Rotation,Rotation,Position,Position,Position,Position,Position,Position,Marker Quality\r\nFrame,Time,TimeCode,X,Y,Z,X,Y,Z,X,Y,Z,\r\n16,0.26,00:00:00:16,1,2,3,4,5,6,7,8,9,0.5\r\n17,0.28,00:00:00:17,,,,,,,,,,\r\n' >"$corpus/euler-timecode.csv"
printf 'Format Version,1.23,Export Frame Rate,120,Rotation Type,Quaternion\n\n,Type,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body\n,Name,B,B,B,B,B,B,B,B\n,,Rotation,Rotation,Rotation,Rotation,Position,Position,Position,Mean Marker Error\nFrame,Time (Seconds),X,Y,Z,W,X,Y,Z,\n0,0,0,0.707107,0,0.707107,1,2,3,0.001\n' >"$corpus/quaternion.csv"
printf 'comment,old\ninfo,version,1.1\ninfo,framecount,1\nframe,0,0.0,1,0\n' >"$corpus/format-1.1.csv"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

echo "fuzz_mocap: fuzzing for ${seconds} s" >&2
status=0
"$fuzzer" "$corpus" -dict="$root/tests/fuzz/motive_csv.dict" -max_total_time="$seconds" \
  -timeout=10 -rss_limit_mb=2048 -max_len=16384 -artifact_prefix="$artifacts/" \
  -print_final_stats=1 >"$work/fuzz.log" 2>&1 || status=$?
tail -n 25 "$work/fuzz.log" >&2

found=$(find "$artifacts" -type f | wc -l)
if [ "$status" -ne 0 ] || [ "$found" -ne 0 ] || grep -q -E "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:" "$work/fuzz.log"; then
  mkdir -p "$build_dir/fuzz-artifacts"
  cp "$work/fuzz.log" "$build_dir/fuzz-artifacts/"
  [ "$found" -ne 0 ] && cp "$artifacts"/* "$build_dir/fuzz-artifacts/"
  echo "fuzz_mocap: FAILED (exit $status, $found artifact(s)); input and log kept in $build_dir/fuzz-artifacts/" >&2
  exit 1
fi
echo "fuzz_mocap: no crash, leak or sanitizer report in ${seconds} s" >&2
