#!/usr/bin/env bash
# Each public header compiles on its own (includes what it uses), with the project's warning flags.
set -u
cd "$(dirname "$0")/.."
CC=${CC:-cc}
fail=0; n=0
for h in include/strata/*.h; do
  n=$((n+1))
  if ! printf '#include "%s"\n' "${h#include/}" | $CC -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -Iinclude -x c - ; then
    echo "FAIL: $h does not compile on its own"; fail=$((fail+1))
  fi
done
echo "$((n-fail)) passed, $fail failed"
[ $fail = 0 ]
