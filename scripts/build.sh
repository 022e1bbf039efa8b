#!/usr/bin/env bash
# Configures and builds Strata into build/ (or $STRATA_BUILD_DIR). Extra args go to cmake configure.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${STRATA_BUILD_DIR:-build}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=${STRATA_BUILD_TYPE:-RelWithDebInfo} "$@" >/dev/null
cmake --build "$B" -j"$(nproc)"
