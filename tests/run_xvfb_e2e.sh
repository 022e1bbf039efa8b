#!/usr/bin/env bash
# End-to-end under Xvfb with Mesa (SDL's x11 driver, GLX): the real game plays a script that waits for the
# world, takes a screenshot, digs the block under the crosshair and takes another; both PNGs must exist and
# differ. Skipped (77) when xvfb-run is not installed.
# Usage: run_xvfb_e2e.sh STRATA_EXECUTABLE
set -u
strata=$1
command -v xvfb-run >/dev/null || { echo "xvfb-run not installed: skipped"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cat >"$t/dig.script" <<EOS
time 0.5
wait_ready
look 0 -45
screenshot $t/a.png
dig
wait 5
screenshot $t/b.png
quit
EOS
unset SDL_VIDEODRIVER
# Under ASan, X11/GLX driver libraries unloaded at exit leave leak reports with unknown modules; they do not
# fail the run, but a leak with a frame in Strata's own sources does (checked below).
export LSAN_OPTIONS="exitcode=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
xvfb-run -a -s "-screen 0 640x400x24" "$strata" --no-save --flat --seed 9 --view-distance 3 --width 480 --height 300 \
  --script "$t/dig.script" >"$t/out" 2>&1
rc=$?
cat "$t/out"
pass=0; fail=0
if [ $rc = 0 ]; then pass=$((pass+1)); else echo "FAIL: strata exited $rc under Xvfb"; fail=$((fail+1)); fi
if [ -s "$t/a.png" ] && [ -s "$t/b.png" ]; then pass=$((pass+1)); else echo "FAIL: screenshots missing"; fail=$((fail+1)); fi
if [ -s "$t/a.png" ] && [ -s "$t/b.png" ] && ! cmp -s "$t/a.png" "$t/b.png"; then pass=$((pass+1));
else echo "FAIL: the dig did not change the picture"; fail=$((fail+1)); fi
if grep -q "x11\|GLX\|llvmpipe" "$t/out"; then pass=$((pass+1)); else echo "FAIL: no GL renderer line in the log"; fail=$((fail+1)); fi
if grep -A30 "LeakSanitizer" "$t/out" | grep -qE '/(src|tools)/[a-z_]+\.c'; then
  echo "FAIL: a leak involves Strata's own code"; fail=$((fail+1))
else pass=$((pass+1)); fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
