#!/usr/bin/env bash
# Installs what is missing, builds the game (only the game and what it links), and launches it. Arguments go
# to the game, e.g.:
#   ./scripts/play.sh --seed 42 --view-distance 8
# One line per stage; a stage's own output is shown only when it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${STRATA_BUILD_DIR:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
stage() { # name, command...
  local name=$1; shift
  if "$@" >"$log" 2>&1; then echo "[play] $name: ok"; else echo "[play] $name: FAILED"; cat "$log"; exit 1; fi
}
stage "dependencies" ./scripts/install-deps.sh
stage "configure" cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=${STRATA_BUILD_TYPE:-RelWithDebInfo}
stage "build strata" cmake --build "$B" --target strata -j"$(nproc)"
echo "[play] launching $B/strata $*"
exec "$B/strata" "$@"
