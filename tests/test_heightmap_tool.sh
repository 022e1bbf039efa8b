#!/bin/sh
# test_heightmap_tool.sh TOOL [EXR_READER] — strata-heightmap end to end: exit codes (2 usage, 1 bad
# input), no partial output on failure, every documented interface, and independent readers: Python PIL
# reads the 16-bit PNG with the same values; OpenEXR's C++ API (EXR_READER) reads the EXR.
set -u
TOOL=$1
EXR_READER=${2:-}
DIR=$(mktemp -d /tmp/strata-hm-test-XXXXXX)
trap 'rm -rf "$DIR"' EXIT
fail=0
expect() {  # expect CODE CMD...
  want=$1; shift
  "$@" >"$DIR/out.txt" 2>"$DIR/err.txt"; got=$?
  if [ "$got" != "$want" ]; then echo "FAIL: exit $got (want $want): $*"; cat "$DIR/err.txt"; fail=1; fi
}
cd "$DIR" || exit 1
expect 0 "$TOOL" generate --recipe stations --size 65x33 --seed 4 --out st.exr
expect 0 "$TOOL" generate --recipe layered --size 64x64 --seed 2 --out lay.sparkterrain
expect 0 "$TOOL" generate --recipe default --size 64x48 --seed 7 --out def.png --normalize
expect 0 "$TOOL" info st.exr --json
grep -q '"width": 65, "height": 33, "spacing": 1, "min": 40, "max": 200' out.txt || { echo "FAIL: info st.exr: $(cat out.txt)"; fail=1; }
expect 0 "$TOOL" erode thermal st.exr st_t.exr --talus-angle 30 --iterations 20 --transport-rate 0.4
expect 0 "$TOOL" erode hydraulic st.exr st_h.exr --seed 9 --num-droplets 3000 --inertia 0.1 --sediment-capacity 4 \
  --min-slope 0.01 --erosion-rate 0.3 --deposition-rate 0.3 --evaporation-rate 0.02 --max-lifetime 25
expect 0 "$TOOL" erode hydraulic st.exr st_h2.exr --seed 9 --num-droplets 3000 --inertia 0.1 --sediment-capacity 4 \
  --min-slope 0.01 --erosion-rate 0.3 --deposition-rate 0.3 --evaporation-rate 0.02 --max-lifetime 25
cmp -s st_h.exr st_h2.exr || { echo "FAIL: hydraulic erosion is not deterministic by seed"; fail=1; }
expect 0 "$TOOL" convert st.exr st.r16 --normalize
expect 0 "$TOOL" convert st.r16 back.exr --map-size 65x33 --height-range 40,200
expect 0 "$TOOL" convert st.exr st.sparkterrain
expect 0 "$TOOL" convert st.sparkterrain st2.exr
expect 0 "$TOOL" convert st.exr st8.raw --bits 8 --flip
expect 0 "$TOOL" export st.exr --format png
[ -f st.png ] || { echo "FAIL: export --format png wrote no st.png"; fail=1; }
expect 0 "$TOOL" preview st.exr relief.png
expect 0 "$TOOL" splat st.exr sp
[ -f sp_0.png ] && [ -f sp_1.png ] || { echo "FAIL: splat maps missing"; fail=1; }
# usage errors: exit 2, and nothing written
expect 2 "$TOOL"
expect 2 "$TOOL" frobnicate
expect 2 "$TOOL" generate --recipe nosuchpreset --size 8x8 --seed 1 --out u1.exr
expect 2 "$TOOL" generate --recipe default --size 8 --seed 1 --out u2.exr
expect 2 "$TOOL" erode sideways st.exr u3.exr
expect 2 "$TOOL" erode thermal st.exr u4.exr --num-droplets 5
expect 2 "$TOOL" erode thermal st.exr u5.exr --talus-angle 120
expect 2 "$TOOL" convert st.exr u6.tiff
expect 2 "$TOOL" convert st.exr u7.png --bits 12
expect 2 "$TOOL" convert st.r16 u8.exr
# unreadable input: exit 1, message names the file and the problem, nothing written
expect 1 "$TOOL" convert missing.exr u9.exr
grep -q "missing.exr" err.txt || { echo "FAIL: message does not name missing.exr"; fail=1; }
expect 1 "$TOOL" convert st.r16 u10.exr --map-size 64x33
grep -q "st.r16: file is 4290 bytes, 64x33 16-bit needs 4224" err.txt || { echo "FAIL: size mismatch message: $(cat err.txt)"; fail=1; }
printf 'SPKT\001\000\000\000' > v1.sparkterrain
expect 1 "$TOOL" info v1.sparkterrain
grep -q "version 1" err.txt || { echo "FAIL: version 1 message: $(cat err.txt)"; fail=1; }
head -c 100 st.exr > cut.exr
expect 1 "$TOOL" convert cut.exr u11.png
for f in u1.exr u2.exr u3.exr u4.exr u5.exr u6.tiff u7.png u8.exr u9.exr u10.exr u11.png; do
  if ls "$f"* >/dev/null 2>&1; then echo "FAIL: partial output $f left behind"; fail=1; fi
done
ls ./*.tmp >/dev/null 2>&1 && { echo "FAIL: temp files left behind"; fail=1; }
# independent readers
PY=""
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c "import PIL" 2>/dev/null; then PY=$p; break; fi
done
expect 0 "$TOOL" convert st.exr st16.png --normalize --bits 16
expect 0 "$TOOL" convert st16.png st16.r16
if [ -n "$PY" ]; then
  "$PY" - <<'PYEOF' || fail=1
from PIL import Image
import struct
im = Image.open("st16.png")
assert im.size == (65, 33), im.size
assert im.mode in ("I;16", "I;16B", "I"), im.mode
pil = list(im.getdata())
raw = open("st16.r16", "rb").read()
ours = list(struct.unpack("<%dH" % (65 * 33), raw))
assert pil == ours, "PIL and strata-heightmap disagree on st16.png"
assert max(pil) == 65535 and min(pil) == 0
print("PIL agrees on", len(pil), "samples")
PYEOF
else
  echo "note: Python PIL not found, PNG cross-check skipped"
fi
if [ -n "$EXR_READER" ]; then
  "$EXR_READER" st.exr > cxx.txt || { echo "FAIL: the C++ EXR reader could not read st.exr"; fail=1; }
  "$TOOL" info st.exr --json > ours.txt
  read -r w h lo hi sum < cxx.txt
  grep -q "\"width\": $w, \"height\": $h, \"spacing\": 1, \"min\": $lo, \"max\": $hi" ours.txt ||
    { echo "FAIL: C++ reader says $(cat cxx.txt), we say $(cat ours.txt)"; fail=1; }
  "$EXR_READER" st_h.exr >/dev/null || { echo "FAIL: C++ reader on st_h.exr"; fail=1; }
else
  echo "note: no C++ compiler, EXR cross-check skipped"
fi
[ $fail = 0 ] && echo "heightmap tool: all checks passed"
exit $fail
