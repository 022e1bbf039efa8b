#!/usr/bin/env bash
# soak.sh MINUTES [OUT_DIR] — runs the real game (SDL_VIDEODRIVER=offscreen) for MINUTES on a generated
# script of teleports far apart, falls, flights and edits (dig, place) with autosave every 10 s, samples its
# RSS from /proc every 5 s and reads the frame times it logs (STRATA_FRAME_STATS=1: the longest frame of
# every 5 s). Prints a summary: RSS at 5 minutes (half time for runs under 10 minutes) and at the end, the
# mean RSS of the first and last thirds after that point and the growth between them, the peak, and the
# longest frame after the world was first ready.
# Environment: STRATA_BIN (default build/strata), SOAK_VIEW_DISTANCE (default 8), SOAK_SEED (default 1),
# SOAK_FAST=1 (three teleports in four do not wait for the world: more load/unload churn per minute).
# Exit: 0 when the mean RSS grew at most 5% after the reference point and no frame after ready took over 250 ms,
# 1 otherwise (2 for bad usage or a game that would not start).
set -u
MINUTES=${1:?usage: soak.sh MINUTES [OUT_DIR]}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${STRATA_BIN:-$ROOT/build/strata}
OUT=${2:-$(mktemp -d /tmp/strata-soak-XXXXXX)}
VIEW=${SOAK_VIEW_DISTANCE:-8}
SEED=${SOAK_SEED:-1}
mkdir -p "$OUT"
[ -x "$BIN" ] || { echo "soak: no game at $BIN (build it first)"; exit 2; }

# The script: far more cycles than MINUTES can play; the game is stopped at the deadline. The teleports go
# round SOAK_PLACES (default 8) places far apart, the same moves at each visit: the memory a place needs
# (its meshes) varies a lot between places, so only a repeated tour makes the start and the end comparable.
SCRIPT="$OUT/soak.script"
awk -v cycles=$((MINUTES * 40 + 20)) -v seed="$SEED" -v fast="${SOAK_FAST:-0}" -v places="${SOAK_PLACES:-8}" 'BEGIN {
  srand(seed);
  for (p = 0; p < places; p++) {
    px[p] = int((rand() * 2 - 1) * 3000) + 0.5; pz[p] = int((rand() * 2 - 1) * 3000) + 0.5; py[p] = int(rand() * 360)
  }
  print "time 0.5"; print "wait_ready";
  for (i = 0; i < cycles; i++) {
    x = px[i % places]; z = pz[i % places]; srand(seed * 1000 + i % places);
    printf "teleport %.1f 160 %.1f\n", x, z;
    if (fast && i % 4 != 3) { print "fly on"; print "move 1 0 0 120"; continue }
    print "fly off"; print "wait_ready"; print "wait 90";
    yaw = int(rand() * 360);
    printf "look %d -70\n", yaw;
    print "dig"; print "place stone"; print "dig"; print "place planks";
    print "fly on";
    printf "move 1 0.3 0.2 %d\n", 120 + int(rand() * 120);
    printf "look %d -50\n", (yaw + 90) % 360;
    print "move 1 0 -0.5 60";
    print "fly off"; print "wait 60";
    print "dig"; print "place glass";
    if (i % 5 == 4) print "save";
  }
  print "quit";
}' > "$SCRIPT"

LOG="$OUT/game.log"
RSS="$OUT/rss.csv"
echo "seconds,rss_kb" > "$RSS"
echo "soak: $MINUTES min, view distance $VIEW, output in $OUT"
SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-offscreen} STRATA_FRAME_STATS=1 "$BIN" --seed "$SEED" --view-distance "$VIEW" \
  --width 800 --height 480 --world "$OUT/world" --new --autosave 10 --script "$SCRIPT" > "$LOG" 2>&1 &
PID=$!
START=$(date +%s)
DEADLINE=$((START + MINUTES * 60))
while kill -0 "$PID" 2>/dev/null && [ "$(date +%s)" -lt "$DEADLINE" ]; do
  kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$PID/status" 2>/dev/null)
  [ -n "$kb" ] && echo "$(( $(date +%s) - START )),$kb" >> "$RSS"
  sleep 5
done
if kill -0 "$PID" 2>/dev/null; then
  kill -TERM "$PID"; sleep 5; kill -KILL "$PID" 2>/dev/null
  STOPPED="stopped at the deadline"
else
  wait "$PID"; STOPPED="exited by itself (status $?)"
fi
ELAPSED=$(( $(date +%s) - START ))
echo "soak: the game $STOPPED after $ELAPSED s"

REF=$((MINUTES >= 10 ? 300 : MINUTES * 30))
# The working set follows what is in view (meshes), so single samples swing: the verdict compares the mean
# RSS of the first and last thirds of the run after the reference point (a leak shows as a rising trend).
awk -F, -v ref="$REF" 'NR > 1 { t[n] = $1; kb[n] = $2; n++; if ($2 > peak) peak = $2 }
  END {
    m = 0; for (i = 0; i < n; i++) if (t[i] >= ref) { tt[m] = t[i]; kk[m] = kb[i]; m++ }
    if (m < 6) { print "soak: too few RSS samples after the reference point"; exit 1 }
    third = int(m / 3);
    for (i = 0; i < third; i++) { a += kk[i]; b += kk[m - third + i] }
    a /= third; b /= third;
    for (i = 0; i < m; i++) if (kk[i] > peak_after) peak_after = kk[i];
    growth = 100.0 * (b - a) / a;
    printf "RSS: %.1f MB at %d s, %.1f MB at the end (%d s); mean %.1f MB over %d-%d s, %.1f MB over %d-%d s: %+.1f%%\n",
      kk[0] / 1024, tt[0], kk[m - 1] / 1024, tt[m - 1], a / 1024, tt[0], tt[third - 1], b / 1024, tt[m - third], tt[m - 1], growth;
    printf "RSS peak %.1f MB (%.1f MB after %d s); %d samples\n", peak / 1024, peak_after / 1024, tt[0], n;
    exit growth > 5.0 ? 1 : 0
  }' "$RSS"
RSS_OK=$?
awk '/world ready after/ { ready = 1 }
  /frame stats:/ && ready { for (i = 1; i <= NF; i++) if ($i == "longest") { v = $(i + 1) + 0; if (v > max) max = v }; lines++ }
  END {
    printf "frames: longest %.1f ms after the world was first ready (%d five-second windows)\n", max, lines;
    exit max > 250 ? 1 : 0
  }' "$LOG"
FRAME_OK=$?
echo "saves: $(grep -sc "saved world" "$LOG") logged; error lines: $(grep -sci "error" "$LOG")"
[ $RSS_OK -eq 0 ] && [ $FRAME_OK -eq 0 ] && exit 0
exit 1
