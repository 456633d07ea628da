#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The k=4 measurements of doc/aggregation.rst's shared-cluster section (PANAMA, Gebara et al.,
# MLSys 2021), one panama-shared-cluster process per line, two at a time, heaviest first:
#   a-LOAD-sN       ring, switchml, panama, ideal at free-mode load LOAD, seed N
#   rack-0.2-sN     ring with --ring-order=rack (the placement option)
#   shared-0.2-sN   panama with --pass-through=shared (the devices' single FIFO)
#   nodcqcn-0.2-s1  ring with --dcqcn=none (RDMA at line rate, PFC only: DCQCN taken out)
#   nobg-0.2-s1     ring without the background flows (--short-load=0 --long-load=0)
#   packed-0.2-s1   ring with --placement=packed (each job in one pod at k=4)
#   fixed-alexnet-0.5-sN, fixed-alexnet-rack-0.5-sN: every job AlexNet (the one model whose
#                   transfer is longer than its compute), --mode=fixed --loads=0.5 (every
#                   worker offers 0.5 of its link): ring and ideal; ring with --ring-order=rack
#   fixed-packed-0.5-s1  the same ring with --placement=packed
# Runs in this order, most needed first (a shared machine may not finish the tail). Every run: full-size models, v100-amp, 2 warm-up iterations, >= 10 measured iterations per
# job (stops when every job has them, or at 3 s of simulated time: min_job_iterations says).
#
#   contrib-scripts/panama-k4-grid.sh BUILD_DIR OUT_DIR [JOBS]
#   contrib-scripts/plot-aggregation.py reproduction doc/figures/aggregation-panama-k4.png OUT_DIR
set -eu
bin="$1/panama-shared-cluster"
out="$2"
jobs="${3:-2}"
mkdir -p "$out"
common="--k=4 --warmup=1ms --warmup-iterations=2 --min-iterations=10 --duration=3s"
all="ring,switchml,panama,ideal"
{
    fixed="--mode=fixed --models=alexnet --loads=0.5"
    echo "a-0.2-s1 --loads=0.2 --seeds=1 --schemes=$all"
    echo "a-0.2-s2 --loads=0.2 --seeds=2 --schemes=$all"
    echo "fixed-alexnet-0.5-s1 $fixed --seeds=1 --schemes=ring,ideal"
    echo "rack-0.2-s1 --loads=0.2 --seeds=1 --schemes=ring --ring-order=rack"
    echo "nodcqcn-0.2-s1 --loads=0.2 --seeds=1 --schemes=ring --dcqcn=none"
    echo "nobg-0.2-s1 --loads=0.2 --seeds=1 --schemes=ring --short-load=0 --long-load=0"
    echo "packed-0.2-s1 --loads=0.2 --seeds=1 --schemes=ring --placement=packed"
    echo "fixed-alexnet-rack-0.5-s1 $fixed --seeds=1 --schemes=ring --ring-order=rack"
    echo "fixed-packed-0.5-s1 $fixed --seeds=1 --schemes=ring --placement=packed"
    echo "shared-0.2-s1 --loads=0.2 --seeds=1 --schemes=panama --pass-through=shared"
    echo "rack-0.2-s2 --loads=0.2 --seeds=2 --schemes=ring --ring-order=rack"
    echo "a-0.2-s3 --loads=0.2 --seeds=3 --schemes=$all"
    echo "rack-0.2-s3 --loads=0.2 --seeds=3 --schemes=ring --ring-order=rack"
    for s in 2 3; do
        echo "fixed-alexnet-0.5-s$s $fixed --seeds=$s --schemes=ring,ideal"
        echo "fixed-alexnet-rack-0.5-s$s $fixed --seeds=$s --schemes=ring --ring-order=rack"
        echo "shared-0.2-s$s --loads=0.2 --seeds=$s --schemes=panama --pass-through=shared"
    done
    for s in 1 2 3; do
        echo "a-0.05-s$s --loads=0.05 --seeds=$s --schemes=$all"
    done
} | xargs -P "$jobs" -L 1 sh -c '
    name="$1"; shift
    /usr/bin/time -f "$name cpu %U s wall %e s maxrss %M KB" -o "'"$out"'/$name.time" \
        nice -n 5 "'"$bin"'" '"$common"' "$@" --out="'"$out"'/$name" > "'"$out"'/$name.log" 2>&1
' sh
