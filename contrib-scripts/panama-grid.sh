#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The measurements of doc/aggregation.rst's shared-cluster section (PANAMA, Gebara et al.,
# MLSys 2021), one panama-shared-cluster process per row, JOBS at a time, in the order below
# (most needed first: a shared machine may not finish the tail). A row is "K NAME ARGS"; its
# output goes to OUT_DIR/kK/NAME (plot-aggregation.py reproduction reads one OUT_DIR/kK).
#   a-LOAD-s1        ring, switchml, panama, ideal at free-mode load LOAD, seed 1, one process
#   SCHEME-LOAD-sN   one scheme at free-mode load LOAD, seed N (the same point as a-LOAD-sN,
#                    one process per scheme so that two run side by side)
#   rack-0.2-sN      ring with --ring-order=rack (the placement option)
#   shared-0.2-sN    panama with --pass-through=shared (the devices' single FIFO)
#   nodcqcn-0.2-s1   ring with --dcqcn=none (RDMA at line rate, PFC only: DCQCN taken out)
#   nobg-0.2-s1      ring without the background flows (--short-load=0 --long-load=0)
#   nobg-panama-0.2-s1  the same for panama (the background's share with random placement)
#   switchml-lb-0.2-s1  SwitchML striped over (k/2)^2 trees
#   packed-0.2-sN    ring with --placement=packed (each job in one pod at k=4)
#   SCHEME-packed-0.2-sN  panama or switchml with --placement=packed (the same hosts as the
#                    packed ring: only the suspected cause of ring's slowdown changed)
#   fixed-alexnet-0.5-sN, fixed-alexnet-rack-0.5-sN: every job AlexNet (the one model whose
#                    transfer is longer than its compute), --mode=fixed --loads=0.5 (every
#                    worker offers 0.5 of its link): ring and ideal; ring with --ring-order=rack
#   fixed-packed-0.5-s1  the same ring with --placement=packed
# Every run: full-size models, v100-amp, 2 warm-up iterations, >= 10 measured iterations per
# job (stops when every job has them, or at --duration of simulated time: min_job_iterations
# says; the cap is 8 s at k=4, enough for seed 3's ring, whose VGG-16 iterations take ~0.36 s;
# a run that stops earlier is the same as with a shorter cap: nothing depends on --duration
# but the stop). Each run's CPU, wall time and largest resident memory: OUT_DIR/kK/NAME.time.
#
#   contrib-scripts/panama-grid.sh BUILD_DIR OUT_DIR [JOBS] [SELECT]
#       SELECT: an extended regular expression on "K NAME" (e.g. '^4 .*-s2$', '^8 '); all rows
#       if absent
#   contrib-scripts/plot-aggregation.py reproduction doc/figures/aggregation-panama-k4.png OUT_DIR/k4
set -eu
bin="$1/panama-shared-cluster"
out="$2"
jobs="${3:-2}"
select="${4:-.}"
common="--warmup=1ms --warmup-iterations=2 --min-iterations=10"
all="ring,switchml,panama,ideal"
fixed="--mode=fixed --models=alexnet --loads=0.5"
free() { # K LOAD SEED: one row per scheme
    for scheme in ring switchml panama ideal; do
        echo "$1 $scheme-$2-s$3 --loads=$2 --seeds=$3 --schemes=$scheme"
    done
}
{
    echo "4 a-0.2-s1 --loads=0.2 --seeds=1 --schemes=$all"
    echo "4 fixed-alexnet-0.5-s1 $fixed --seeds=1 --schemes=ring,ideal"
    echo "4 rack-0.2-s1 --loads=0.2 --seeds=1 --schemes=ring --ring-order=rack"
    echo "4 nodcqcn-0.2-s1 --loads=0.2 --seeds=1 --schemes=ring --dcqcn=none"
    echo "4 nobg-0.2-s1 --loads=0.2 --seeds=1 --schemes=ring --short-load=0 --long-load=0"
    echo "4 packed-0.2-s1 --loads=0.2 --seeds=1 --schemes=ring --placement=packed"
    echo "4 fixed-alexnet-rack-0.5-s1 $fixed --seeds=1 --schemes=ring --ring-order=rack"
    echo "4 fixed-packed-0.5-s1 $fixed --seeds=1 --schemes=ring --placement=packed"
    echo "4 shared-0.2-s1 --loads=0.2 --seeds=1 --schemes=panama --pass-through=shared"
    echo "4 panama-packed-0.2-s1 --loads=0.2 --seeds=1 --schemes=panama --placement=packed"
    for s in 2 3; do
        free 4 0.2 $s
        echo "4 packed-0.2-s$s --loads=0.2 --seeds=$s --schemes=ring --placement=packed"
        echo "4 shared-0.2-s$s --loads=0.2 --seeds=$s --schemes=panama --pass-through=shared"
        echo "4 rack-0.2-s$s --loads=0.2 --seeds=$s --schemes=ring --ring-order=rack"
        for scheme in panama switchml; do
            echo "4 $scheme-packed-0.2-s$s --loads=0.2 --seeds=$s --schemes=$scheme --placement=packed"
        done
    done
    echo "4 switchml-lb-0.2-s1 --loads=0.2 --seeds=1 --schemes=switchml-lb"
    echo "4 nobg-panama-0.2-s1 --loads=0.2 --seeds=1 --schemes=panama --short-load=0 --long-load=0"
    free 8 0.2 1
    for s in 2 3; do
        echo "4 fixed-alexnet-0.5-s$s $fixed --seeds=$s --schemes=ring,ideal"
        echo "4 fixed-alexnet-rack-0.5-s$s $fixed --seeds=$s --schemes=ring --ring-order=rack"
    done
    for s in 1 2 3; do
        free 4 0.05 $s
    done
    free 8 0.2 2
    free 8 0.2 3
} | awk -v re="$select" '($1 " " $2) ~ re' | xargs -P "$jobs" -L 1 sh -c '
    k="$1"; name="$2"; shift 2
    dir="'"$out"'/k$k"; mkdir -p "$dir"
    case $k in 4) duration=8s ;; *) duration=5s ;; esac
    /usr/bin/time -f "$name cpu %U s wall %e s maxrss %M KB" -o "$dir/$name.time" \
        nice -n 10 "'"$bin"'" --k=$k '"$common"' --duration=$duration "$@" --out="$dir/$name" \
        > "$dir/$name.log" 2>&1
' sh
