#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Installs this build into a scratch prefix (cmake --install), then builds the template user
# project (contrib-scripts/user-project) against it twice -- with CMake (find_package(mlnet),
# ns3::mlnet) and with pkg-config -- runs both programs and checks their output, and imports the
# installed Python module. Run by CTest ("user-project"):
#   test-user-project.sh <mlnet build dir> <mlnet source dir> <scratch dir>
set -euo pipefail
build=$1
src=$2
work=$3
prefix=$work/prefix
rm -rf "$work"
mkdir -p "$work"

step() { echo "== $*"; }
check_output() { # program output must list every flow's FCT and some rate changes
  local out=$1 senders=$2
  echo "$out"
  [ "$(grep -c '^flow [0-9]*: fct [0-9]* us$' <<<"$out")" -eq "$senders" ]
  grep -q '^rate changes of flow 0: [1-9]' <<<"$out"
}

step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
test -f "$prefix/include/ns3/mlnet-module.h"
test -f "$prefix/include/ns3/unit-parser.h"
ls "$prefix"/lib*/cmake/mlnet/mlnetConfig.cmake "$prefix"/lib*/pkgconfig/mlnet.pc

step "CMake: find_package(mlnet) + ns3::mlnet"
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$src/contrib-scripts/user-project" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" \
  "${launcher[@]}" >"$work/configure.log"
cmake --build "$work/cmake-build" >"$work/build.log"
check_output "$("$work/cmake-build/incast" --senders=3)" 3

step "pkg-config --cflags --libs mlnet"
libdir=$(dirname "$(ls "$prefix"/lib*/pkgconfig/mlnet.pc)")/..
export PKG_CONFIG_PATH=$libdir/pkgconfig
flags=$(pkg-config --cflags --libs mlnet)
echo "$flags"
${CXX:-g++} -std=c++17 -O1 "$src/contrib-scripts/user-project/incast.cc" $flags \
  -Wl,-rpath,"$(cd "$libdir" && pwd)" -o "$work/incast-pc"
check_output "$("$work/incast-pc" --senders=2)" 2

pydir=$(ls -d "$prefix"/lib*/python3/dist-packages 2>/dev/null | head -1 || true)
if [ -n "$pydir" ] && ls "$pydir"/mlnet*.so >/dev/null 2>&1; then
  step "installed Python module"
  PYTHONPATH=$pydir /usr/bin/python3 -c 'import mlnet; print(mlnet.parse_rate("10Gibps"))'
fi
echo "user-project: OK"
