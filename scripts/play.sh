#!/usr/bin/env bash
# Installs what is missing, builds, and launches Strata. Arguments go to the game, e.g.:
#   ./scripts/play.sh --seed 42 --view-distance 8
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh
exec ./build/strata "$@"
