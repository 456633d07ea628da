#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# PANAMA's shared-cluster experiment at flow level (panama-shared-cluster --backend=flow,
# doc/aggregation.rst "Flow level at k=8 and k=16") at sizes the packet level cannot reach on
# one machine: one process per row, JOBS at a time, in the order below (most needed first). A
# row is "K NAME ARGS"; its output goes to OUT_DIR/kK/NAME, its CPU, wall time and largest
# resident memory to OUT_DIR/kK/NAME.time (plot-aggregation.py reproduction OUT.png OUT_DIR/kK
# reads one OUT_DIR/kK).
#   SCHEME-LOAD-sN   one scheme at free-mode load LOAD, seed N
# Every run: full-size models, v100-amp, 2 warm-up iterations, >= 10 measured iterations per
# job (or --duration=10s of simulated time: min_job_iterations says), background flows as
# BACKGROUND says (aggregate, the default: the aggregate background model with its 100 us
# interval, 2.3x less CPU than per-flow for PANAMA at k=8; per-flow: one fluid flow each).
#
#   contrib-scripts/panama-flow-scale.sh BUILD_DIR OUT_DIR [JOBS] [SELECT] [BACKGROUND]
#       SELECT: an extended regular expression on "K NAME" (e.g. '^8 .*-s1$', '^16 '); all
#       rows if absent
set -eu
bin="$1/panama-shared-cluster"
out="$2"
jobs="${3:-1}"
select="${4:-.}"
background="${5:-aggregate}"
common="--backend=flow --fluid-background=$background --warmup=1ms --warmup-iterations=2"
common="$common --min-iterations=10 --duration=10s"
row() { # K LOAD SEED SCHEME...: one row per scheme
    k="$1"; load="$2"; seed="$3"; shift 3
    for scheme in "$@"; do
        echo "$k $scheme-$load-s$seed --loads=$load --seeds=$seed --schemes=$scheme"
    done
}
{
    row 8 0.2 1 ring panama switchml ideal switchml-lb
    for s in 2 3; do
        row 8 0.2 $s ring panama
    done
    for s in 2 3; do
        row 8 0.2 $s switchml ideal switchml-lb
    done
    row 16 0.2 1 ring panama
    row 16 0.4 1 ring panama
    row 16 0.2 1 switchml ideal switchml-lb
    for s in 2 3; do
        row 16 0.2 $s ring panama switchml ideal switchml-lb
    done
} | awk -v re="$select" '($1 " " $2) ~ re' | xargs -P "$jobs" -L 1 sh -c '
    k="$1"; name="$2"; shift 2
    dir="'"$out"'/k$k"; mkdir -p "$dir"
    /usr/bin/time -f "$name cpu %U s wall %e s maxrss %M KB" -o "$dir/$name.time" \
        nice -n 10 "'"$bin"'" --k=$k '"$common"' "$@" --out="$dir/$name" > "$dir/$name.log" 2>&1
' sh
