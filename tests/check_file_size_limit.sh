#!/usr/bin/env bash
# Step 12 defect 8: under a file size limit (ulimit -f) a save fails with a clear error instead of SIGXFSZ
# killing the game: the exit is 1 with the save error named, never death by signal (exit 153).
set -u
game=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
printf 'wait_ready\nlook 0 -60\nplace planks\nsave\nquit\n' >"$t/s.script"
( ulimit -f 4; SDL_VIDEODRIVER=offscreen "$game" --flat --seed 3 --view-distance 2 --width 160 --height 100 \
    --world "$t/w" --new --script "$t/s.script" >"$t/out" 2>&1 ); rc=$?
pass=0; fail=0
if [ "$rc" -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: exit $rc (want 1; 153 = killed by SIGXFSZ)"; tail -5 "$t/out"; fi
if grep -qiE "save|File too large" "$t/out"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: no save error in the log"; fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
