#!/usr/bin/env bash
# Regenerates the bundled synthetic recordings in datasets/recordings/ from their scenario files:
# for every <name>.json, `clothfit synth` simulates the scenario's "synth" motion on a finer mesh
# (refinement 4, 2 substeps) with the true parameters below and writes <name>.csv (Motive CSV with
# 1 mm noise, random gaps and occlusion bursts) and <name>.truth.json. Deterministic: the motion and
# the corruption are seeded in the scenario files, so the same binary gives the same files.
#
# True values (paper Table 1 densities; alpha in 1/s, delta in kg/m², mu dimensionless; the one
# table-drag recording, polyester, has mu = 0.4):
#   fabric        density  alpha  delta  mu low  mu high
#   polyester     0.1042   0.20   0.08   0.05    1.0
#   wool          0.1804   0.25   0.15   0.05    1.6
#   denim         0.3046   0.30   0.27   0.05    1.4
#   stiff-cotton  0.3046   0.35   0.28   0.05    1.2
#
# usage: scripts/make_datasets.sh [BUILD_DIR]   (default: build; needs BUILD_DIR/apps/clothfit)
#        JOBS=2 runs that many recordings at once.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
clothfit="$build/apps/clothfit"
[[ -x "$clothfit" ]] || { echo "make_datasets: $clothfit not found (build the clothfit target)" >&2; exit 2; }
dir="$root/datasets/recordings"
jobs="${JOBS:-2}"

declare -A alpha=([polyester]=0.2 [wool]=0.25 [denim]=0.3 [stiff-cotton]=0.35)
declare -A delta=([polyester]=0.08 [wool]=0.15 [denim]=0.27 [stiff-cotton]=0.28)
declare -A mu_high=([polyester]=1.0 [wool]=1.6 [denim]=1.4 [stiff-cotton]=1.2)
mu_low=0.05

make_one() {  # name truth
  local name="$1" truth="$2" start=$SECONDS
  "$clothfit" synth "$dir/$name.json" --truth "$truth" --out "$dir/$name.csv" > "$dir/.$name.log" 2>&1 ||
    { echo "make_datasets: $name failed:" >&2; cat "$dir/.$name.log" >&2; rm -f "$dir/.$name.log"; return 1; }
  rm -f "$dir/.$name.log"
  echo "make_datasets: $name ($truth) in $((SECONDS - start)) s" >&2
}

start=$SECONDS
pids=()
for fabric in polyester wool denim stiff-cotton; do
  a=${alpha[$fabric]} d=${delta[$fabric]}
  for spec in "tablecloth_low mu.table=$mu_low" "tablecloth_high mu.table=${mu_high[$fabric]}" "hitting"; do
    read -r kind mu <<< "$spec"
    truth="alpha=$a,delta=$d${mu:+,$mu}"
    make_one "${fabric}_$kind" "$truth" &
    pids+=($!)
    while (( $(jobs -rp | wc -l) >= jobs )); do wait -n || true; done
  done
done
# A table recording that pins all three parameters (README "What the fits recover"): the sheet is
# laid flat, dragged over the table and lifted off; mu = 0.4 lets it slide.
while (( $(jobs -rp | wc -l) >= jobs )); do wait -n || true; done
make_one polyester_table_drag "alpha=${alpha[polyester]},delta=${delta[polyester]},mu.table=0.4" &
pids+=($!)
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
echo "make_datasets: all recordings in $((SECONDS - start)) s ($(du -sh "$dir" | cut -f1))" >&2
exit $status
