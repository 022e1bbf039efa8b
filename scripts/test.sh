#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (unit, integration and the headless
# end-to-end tests, which run the real game under SDL's offscreen driver with Mesa).
#   ./scripts/test.sh            release build in build/
#   ./scripts/test.sh asan       AddressSanitizer + UBSan build in build-asan/
#   ./scripts/test.sh tsan       ThreadSanitizer build in build-tsan/
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
mode=${1:-release}
case "$mode" in
  release) export STRATA_BUILD_DIR=build; ./scripts/build.sh ;;
  asan) export STRATA_BUILD_DIR=build-asan STRATA_BUILD_TYPE=Debug; ./scripts/build.sh -DSTRATA_SANITIZE=address ;;
  tsan) export STRATA_BUILD_DIR=build-tsan STRATA_BUILD_TYPE=Debug; ./scripts/build.sh -DSTRATA_SANITIZE=thread ;;
  *) echo "usage: $0 [release|asan|tsan]" >&2; exit 2 ;;
esac
cd "$STRATA_BUILD_DIR"
ctest --output-on-failure -j"$(nproc)" --timeout 600
