#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mlnet set-up and main jobs: the two commands of the README.
#
#   bash mlnet.sh run [mlnet-run options]  install what is missing, build (Release), run the
#                                          scenario runner (the built-in default scenario unless
#                                          a scenario file is given) and print its summary
#   bash mlnet.sh test                     install what is missing, build, run the whole test
#                                          suite with CTest (non-zero exit status on failure)
#
# Works unattended (CI=true, no stdin). Debian packages are installed only when one is missing,
# with sudo when not run as root. Environment: MLNET_BUILD_DIR (default build; relative to the
# repository), MLNET_JOBS (default 2). File arguments of `run` are relative to the caller's
# directory.
set -euo pipefail

# Builds run from the repository; `run` then goes back to where the user stands, so that
# relative paths given to mlnet-run (scenario file, --out) are the user's.
CALLER_PWD=$PWD
cd "$(dirname "${BASH_SOURCE[0]}")"

# Everything the module, its tests, benchmarks and Python bindings use (doc/PLATFORM facts:
# find_package(ns3) also needs ns3, libgsl-dev, libsqlite3-dev, libxml2-dev and python3-dev).
PACKAGES=(
  cmake g++ make
  libns3-dev ns3 libgsl-dev libsqlite3-dev libxml2-dev python3-dev
  catch2 pybind11-dev python3-pybind11 libboost-dev libeigen3-dev nlohmann-json3-dev
  python3-numpy python3-matplotlib libbenchmark-dev python3-distributed
  clang libclang-rt-14-dev # libFuzzer: the fuzz-* tests (test/fuzz)
)
BUILD_DIR=${MLNET_BUILD_DIR:-build}
case "$BUILD_DIR" in
  /*) ;;
  *) BUILD_DIR="$PWD/$BUILD_DIR" ;; # relative to the repository
esac
JOBS=${MLNET_JOBS:-2}

log() {
  echo "mlnet.sh: $*" >&2
}

usage() {
  sed -n '4,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
}

install_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    log "dpkg-query not found (not Debian?): skipping package installation"
    return 0
  fi
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  log "missing Debian packages: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      log "error: not root and sudo is not available; install as root: apt-get install -y ${PACKAGES[*]}"
      exit 1
    fi
    sudo=(sudo)
  fi
  local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -o Dpkg::Use-Pty=0)
  local try
  for try in 1 2 3; do
    if "${apt[@]}" update </dev/null; then
      break
    fi
    if [ "$try" -eq 3 ]; then
      log "error: apt-get update failed"
      exit 1
    fi
    log "apt-get update failed, retrying in 5 s"
    sleep 5
  done
  "${apt[@]}" install -y --no-install-recommends "${PACKAGES[@]}" </dev/null
}

configure_and_build() {
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
  cmake --build "$BUILD_DIR" -j"$JOBS" "$@"
}

cmd=${1:-}
case "$cmd" in
  run)
    shift
    install_packages
    configure_and_build --target mlnet-run
    cd "$CALLER_PWD"
    exec "$BUILD_DIR/mlnet-run" "$@"
    ;;
  test)
    shift
    install_packages
    configure_and_build
    cd "$BUILD_DIR"
    exec ctest --output-on-failure -j"$JOBS"
    ;;
  -h | --help | help)
    usage
    ;;
  *)
    usage
    log "error: unknown command '${cmd}' (expected run or test)"
    exit 2
    ;;
esac
