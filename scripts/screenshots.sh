#!/usr/bin/env bash
# Renders the screenshots of docs/screenshots with the real game (SDL offscreen, 1280x720, default settings):
# the loading screen's first frame, hotbar, block picker, pause menu, settings, the sky at noon, sunset and
# night, and the view under water. Usage: scripts/screenshots.sh [BUILD_DIR]  (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
OUT=docs/screenshots
export SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=dummy XDG_CONFIG_HOME=$(mktemp -d)
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
run() { # seed, script text
  local script; script=$(mktemp)
  printf '%b' "$2" > "$script"
  "$B/strata" --no-save --seed "$1" --width 1280 --height 720 --script "$script" >/dev/null 2>&1 ||
    { echo "[screenshots] seed $1 failed"; rm -f "$script"; exit 1; }
  rm -f "$script"
}
run "hello world" "screenshot $OUT/loading.png\nquit\n"
run 3 "time 0.45\nwait_ready\nhud off\nhotbar 3 grass\nhotbar 4 oak_trunk\nhotbar 5 tall_grass\nhotbar 6 water\nselect_slot 4\nwait 1\nscreenshot $OUT/hotbar.png\nmenu picker\nwait 1\nscreenshot $OUT/picker.png\nmenu open\nwait 1\nscreenshot $OUT/pause.png\nmenu settings\nwait 1\nscreenshot $OUT/settings.png\nquit\n"
run hello "hud off\ntime 0.5\nwait_ready\nlook 200 12\nwait 1\nscreenshot $OUT/sky_noon.png\ntime 0.745\nwait_ready\nlook 255 8\nwait 1\nscreenshot $OUT/sky_sunset.png\ntime 0.0\nwait_ready\nlook 0 40\nwait 1\nscreenshot $OUT/sky_night.png\nquit\n"
run 1 "hud off\ntime 0.5\nfly on\nwait_ready\nteleport -62 62.6 330\nlook 60 5\nwait_ready\nscreenshot $OUT/underwater.png\nquit\n"
echo "[screenshots] written to $OUT"
