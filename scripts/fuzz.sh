#!/usr/bin/env bash
# Fuzzes the readers of the two kinds of file users bring: builds tests/fuzz/motive_csv_fuzzer
# (Motive CSV) and tests/fuzz/obj_quad_mesh_fuzzer (OBJ quad meshes) with clang and
# -fsanitize=fuzzer,address,undefined in a build directory of its own, seeds each from real files
# (the Motive exports in ../shared/fixtures/motive and the bundled tube.obj, copied into a
# temporary directory, never into the repository) plus a few small files, and runs each with
# libFuzzer for a bounded time. Exits non-zero on any crash, leak, timeout, sanitizer report or
# broken invariant; the offending input is kept in $BUILD_DIR/fuzz-artifacts/.
#
#   scripts/fuzz.sh                      # 60 s per reader
#   FUZZ_SECONDS=600 scripts/fuzz.sh
#   FUZZ_BUILD_DIR=/tmp/fuzz CLOTHFIT_SHARED_DIR=/path/to/shared scripts/fuzz.sh
#
# Needs clang and libclang-rt-14-dev (scripts/setup.sh installs them); no network.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${FUZZ_SECONDS:-60}
build_dir=${FUZZ_BUILD_DIR:-$root/build-fuzz}
shared_dir=${CLOTHFIT_SHARED_DIR:-$root/../shared}
jobs=$(nproc)

if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "fuzz: FUZZ_SECONDS must be a whole number of seconds >= 1, got '$seconds'" >&2
  exit 2
fi
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (apt-get install clang libclang-rt-14-dev)" >&2
  exit 2
fi

echo "fuzz: building motive_csv_fuzzer and obj_quad_mesh_fuzzer in $build_dir" >&2
cmake -S tests/fuzz -B "$build_dir" -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" --target motive_csv_fuzzer obj_quad_mesh_fuzzer -j "$jobs" >/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/clothfit-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

# run_fuzzer TARGET MAX_LEN: fuzzes $work/TARGET/corpus for $seconds with tests/fuzz/TARGET.dict.
failed=0
run_fuzzer() {
  local target=$1 max_len=$2
  local dir="$work/$target"
  mkdir -p "$dir/artifacts"
  echo "fuzz: $target for ${seconds} s" >&2
  local status=0
  "$build_dir/$target" "$dir/corpus" -dict="$root/tests/fuzz/$target.dict" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -artifact_prefix="$dir/artifacts/" -print_final_stats=1 >"$dir/fuzz.log" 2>&1 || status=$?
  tail -n 25 "$dir/fuzz.log" >&2
  local found
  found=$(find "$dir/artifacts" -type f | wc -l)
  if [ "$status" -ne 0 ] || [ "$found" -ne 0 ] ||
    grep -q -E "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|invariant broken" "$dir/fuzz.log"; then
    mkdir -p "$build_dir/fuzz-artifacts"
    cp "$dir/fuzz.log" "$build_dir/fuzz-artifacts/$target.log"
    [ "$found" -ne 0 ] && cp "$dir/artifacts"/* "$build_dir/fuzz-artifacts/"
    echo "fuzz: $target FAILED (exit $status, $found artifact(s)); input and log kept in $build_dir/fuzz-artifacts/" >&2
    failed=1
    return
  fi
  echo "fuzz: $target: no crash, leak, sanitizer report or broken invariant in ${seconds} s" >&2
}

# Motive CSV seeds: the real exports (whole, and cut down to a few complete frames so that
# mutations stay small and still reach the data rows), plus small files for the other branches of
# the format.
corpus="$work/motive_csv_fuzzer/corpus"
mkdir -p "$corpus"
fixtures="$shared_dir/fixtures/motive"
if [ -d "$fixtures" ]; then
  for f in "$fixtures"/*.csv; do
    name=$(basename "$f" .csv)
    cp "$f" "$corpus/$name.csv"
    head -n 12 "$f" | sed -e 's/Total Exported Frames,[0-9]*/Total Exported Frames,5/' \
      >"$corpus/$name-5-frames.csv"
  done
else
  echo "fuzz: $fixtures is absent; seeding the Motive reader with the small files only" >&2
fi
printf 'Format Version,1.23,Take Name,small,Export Frame Rate,100,Total Exported Frames,3,Length Units,Millimeters\n\n,Type,Marker,Marker,Marker,Marker,Marker,Marker\n,Name,A,A,A,B,B,B\n,ID,1,1,1,2,2,2\n,,Position,Position,Position,Position,Position,Position\nFrame,Time (Seconds),X,Y,Z,X,Y,Z\n0,0.00,1,2,3,4,5,6\n1,0.01,1.5,2.5,3.5,,,\n2,0.02,2,3,4,7,8,9\n' >"$corpus/small.csv"
printf '\xef\xbb\xbfFormat Version,1.24,Export Frame Rate,60,Rotation Type,XYZ\r\n\r\n,,,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body Marker,Rigid Body Marker,Rigid Body Marker,Rigid Body Marker\r\n,,,"S","S","S","S","S","S","S:M1","S:M1","S:M1","S:M1"\r\n,,,P,P,P,P,P,P,P,P,P,P\r\n,,,Rotation,Rotation,Rotation,Position,Position,Position,Position,Position,Position,Marker Quality\r\nFrame,Time,TimeCode,X,Y,Z,X,Y,Z,X,Y,Z,\r\n16,0.26,00:00:00:16,1,2,3,4,5,6,7,8,9,0.5\r\n17,0.28,00:00:00:17,,,,,,,,,,\r\n' >"$corpus/euler-timecode.csv"
printf 'Format Version,1.23,Export Frame Rate,120,Rotation Type,Quaternion\n\n,Type,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body\n,Name,B,B,B,B,B,B,B,B\n,,Rotation,Rotation,Rotation,Rotation,Position,Position,Position,Mean Marker Error\nFrame,Time (Seconds),X,Y,Z,W,X,Y,Z,\n0,0,0,0.707107,0,0.707107,1,2,3,0.001\n' >"$corpus/quaternion.csv"
printf 'comment,old\ninfo,version,1.1\ninfo,framecount,1\nframe,0,0.0,1,0\n' >"$corpus/format-1.1.csv"
run_fuzzer motive_csv_fuzzer 16384

# OBJ seeds: the bundled tube (a closed strip of quads), and small meshes for relative indices,
# the i/t/n corner forms, skipped records and a non-planar grid.
corpus="$work/obj_quad_mesh_fuzzer/corpus"
mkdir -p "$corpus"
cp datasets/examples/tube.obj "$corpus/tube.obj"
printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nv 2 1 0\nf 1 2 3 4\nf 2 5 6 3\n' >"$corpus/two-quads.obj"
printf '# corners\r\no sheet\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\ns off\nf -4/1 -3/2 -2//3 -1/4/4\n' >"$corpus/relative.obj"
printf 'v 0 0 0\nv 0.1 0 0\nv 0.2 0 0\nv 0 0.1 0\nv 0.1 0.1 0.01\nv 0.2 0.1 0.02\nv 0 0.2 0\nv 0.1 0.2 0.02\nv 0.2 0.2 0.04\nf 1 2 5 4\nf 2 3 6 5\nf 4 5 8 7\nf 5 6 9 8\n' >"$corpus/grid.obj"
run_fuzzer obj_quad_mesh_fuzzer 8192

exit $failed
