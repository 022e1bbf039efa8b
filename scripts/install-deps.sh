#!/usr/bin/env bash
# Installs the Debian 12 packages Strata needs to build, test and play.
# Idempotent: installs only what is missing and says what it installs. Run as root (or via sudo).
set -euo pipefail
PKGS=(cmake make gcc g++ pkg-config libsdl2-dev libcglm-dev zlib1g-dev libstb-dev libcjson-dev libopenexr-dev
      libpng-dev libyaml-dev libassimp-dev python3-pil python3-glad xvfb xauth libgl1-mesa-dri libegl-mesa0 libegl-dev mesa-utils
      fonts-dejavu-core    # tools/strata-font bakes the UI font from DejaVu Sans Bold
      clang libclang-rt-14-dev)   # clang + libFuzzer: the fuzz tests in ctest (skipped without them)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "[deps] all packages present"
  exit 0
fi
echo "[deps] installing: ${missing[*]}"
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "[deps] done"
