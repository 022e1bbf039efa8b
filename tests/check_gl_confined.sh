#!/usr/bin/env bash
# OpenGL stays in src/render/: no gl* calls or glad includes anywhere else in src/ or tools/.
set -u
cd "$(dirname "$0")/.."
hits=$(grep -rnE '\bgl[A-Z][A-Za-z0-9]*[[:space:]]*\(|#include[[:space:]]*<glad/' src tools --include='*.c' --include='*.h' | grep -v '^src/render/')
if [ -n "$hits" ]; then
  echo "OpenGL outside src/render/:"; echo "$hits"
  echo "0 passed, 1 failed"; exit 1
fi
echo "1 passed, 0 failed"
