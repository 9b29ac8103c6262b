#!/usr/bin/env bash
# Reproduces the study of the paper's section 7 on the bundled synthetic recordings
# (datasets/recordings/, made by scripts/make_datasets.sh):
#   1. fits every recording (`clothfit fit`): mu.table on the 8 tablecloth recordings (alpha and
#      delta fixed at the fabric's truth), alpha and delta on the 4 hitting recordings (with
#      --compare-solvers, so fit.json also has q of the interior-point QP solver);
#   2. prints paper Table 2 (tablecloth) and Table 3 (hitting) with truth beside the fitted values
#      (also written as OUT/table2.md and OUT/table3.md);
#   3. the mu sensitivity sweep of paper Fig. 7 on the four high-friction recordings
#      (`clothfit sweep --vary mu.table=0:2:0.1`), and SVG plots (OUT/fig7.svg, OUT/<name>/frames.svg).
# Grid sizes and refinement iterations come from each scenario's "fit" object; they are chosen so
# that the whole run takes under 10 minutes on 2 cores.
# Progress goes to stderr, the tables to stdout.
#
# usage: scripts/reproduce.sh [BUILD_DIR [OUT_DIR]]   (defaults: build, out/reproduce)
#        THREADS=n sets the simulations run in parallel (default: all cores).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
out="${2:-$root/out/reproduce}"
clothfit="$build/apps/clothfit"
[[ -x "$clothfit" ]] || { echo "reproduce: $clothfit not found (build the clothfit target)" >&2; exit 2; }
data="$root/datasets/recordings"
threads=()
[[ -n "${THREADS:-}" ]] && threads=(--threads "$THREADS")
mkdir -p "$out"

fabrics=(polyester wool denim stiff-cotton)
names=()
for fabric in "${fabrics[@]}"; do
  names+=("${fabric}_tablecloth_low" "${fabric}_tablecloth_high" "${fabric}_hitting")
done

have_plot=0
"$clothfit" plot --help > /dev/null 2>&1 && have_plot=1

start=$SECONDS
log() { printf '[reproduce %3d s] %s\n' "$((SECONDS - start))" "$*" >&2; }

i=0
for name in "${names[@]}"; do
  i=$((i + 1))
  extra=()
  [[ "$name" == *_hitting ]] && extra=(--compare-solvers)
  log "fit $i/${#names[@]}: $name"
  t0=$SECONDS
  if ! "$clothfit" fit "$data/$name.json" --out "$out/$name" --quiet "${threads[@]}" "${extra[@]}" \
    > "$out/$name.log" 2>&1; then
    log "fit $name FAILED (see $out/$name.log):"
    tail -5 "$out/$name.log" >&2
    continue
  fi
  log "fit $name done in $((SECONDS - t0)) s"
  if ((have_plot)); then
    "$clothfit" plot "$out/$name/frames.csv" --out "$out/$name/frames.svg" --title "$name" \
      > /dev/null 2>&1 || log "plot of $name failed"
  fi
done

log "tables"
shopt -s nullglob
table_fits=("$out"/*_tablecloth_*/fit.json)
hitting_fits=("$out"/*_hitting/fit.json)
echo "## Table 2: putting a tablecloth (mu.table fitted; alpha, delta fixed at the truth)"
echo
"$clothfit" table "${table_fits[@]}" --layout tablecloth --format md | tee "$out/table2.md"
echo
echo "## Table 3: hitting (alpha, delta fitted; q of both QP solvers)"
echo
"$clothfit" table "${hitting_fits[@]}" --layout hitting --format md | tee "$out/table3.md"
echo

sweeps=()
for fabric in "${fabrics[@]}"; do
  name="${fabric}_tablecloth_high"
  log "sweep mu.table=0:2:0.1 on $name"
  t0=$SECONDS
  if "$clothfit" sweep "$data/$name.json" --vary mu.table=0:2:0.1 --out "$out/sweep_$name" --quiet \
    "${threads[@]}" > "$out/sweep_$name.log" 2>&1; then
    sweeps+=("$out/sweep_$name/sweep.csv")
    log "sweep $name done in $((SECONDS - t0)) s"
  else
    log "sweep $name FAILED (see $out/sweep_$name.log)"
  fi
done
if ((have_plot)) && ((${#sweeps[@]} > 0)); then
  "$clothfit" plot "${sweeps[@]}" --out "$out/fig7.svg" \
    --title "Mean error over mu (high-friction tablecloth recordings)" > /dev/null 2>&1 ||
    log "plot of the sweeps failed"
fi
log "done: outputs in $out"
echo "total time: $((SECONDS - start)) s" >&2
