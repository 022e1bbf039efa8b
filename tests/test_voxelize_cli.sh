#!/bin/sh
# strata-voxelize's command line: --help exits 0, usage errors exit 2 naming the flag, an unreadable or empty
# model exits 1 naming the file, a model (seed 004's bank.glb) becomes a template twice the same, byte for byte.
# Assimp is opened on the first import only: not loaded at start, and where it cannot be opened the import
# fails naming it (exit 1).
# usage: test_voxelize_cli.sh STRATA_VOXELIZE (run from the repository root)
set -u
V=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
expect() { # expect CODE TEXT -- command...
  code=$1; text=$2; shift 3
  "$@" >"$T/out" 2>&1; rc=$?
  if [ "$rc" != "$code" ]; then echo "FAIL: $* exited $rc, expected $code"; cat "$T/out"; fail=1; return; fi
  if [ -n "$text" ] && ! grep -q -- "$text" "$T/out"; then echo "FAIL: $*: no '$text' in:"; cat "$T/out"; fail=1; fi
}
expect 0 "usage" -- "$V" --help
expect 2 "MODEL and --out" -- "$V" --size 8
expect 2 "--size wants" -- "$V" examples/seeds/bank.glb --size 0 --out "$T/a.json"
expect 2 "--size wants" -- "$V" examples/seeds/bank.glb --size 300 --out "$T/a.json"
expect 2 "one of --size" -- "$V" examples/seeds/bank.glb --size 8 --scale 2 --out "$T/a.json"
expect 2 "one of --size" -- "$V" examples/seeds/bank.glb --out "$T/a.json"
expect 2 "--scale wants" -- "$V" examples/seeds/bank.glb --scale -1 --out "$T/a.json"
expect 2 "--fill wants" -- "$V" examples/seeds/bank.glb --size 8 --fill hollow --out "$T/a.json"
expect 2 "unknown flag" -- "$V" examples/seeds/bank.glb --size 8 --colour red --out "$T/a.json"
expect 1 "nowhere.glb" -- "$V" "$T/nowhere.glb" --size 8 --out "$T/a.json"
printf 'not a model\n' > "$T/junk.glb"
expect 1 "junk.glb" -- "$V" "$T/junk.glb" --size 8 --out "$T/a.json"
printf 'v 0 0 0\nv 1 0 0\n' > "$T/empty.obj"
expect 1 "empty.obj" -- "$V" "$T/empty.obj" --size 8 --out "$T/a.json"
expect 1 "nonsense" -- "$V" examples/seeds/bank.glb --size 8 --palette stone,nonsense --out "$T/a.json"
if LD_DEBUG=files "$V" --help 2>&1 | grep -q "file=libassimp"; then
  echo "FAIL: strata-voxelize loads Assimp at start"; fail=1
fi
expect 1 "needs Assimp" -- env STRATA_ASSIMP=/nonexistent/libassimp.so "$V" examples/seeds/bank.glb --size 8 --out "$T/a.json"
expect 1 "has no aiImportFile" -- env STRATA_ASSIMP=libz.so.1 "$V" examples/seeds/bank.glb --size 8 --out "$T/a.json"
expect 0 "11x10x10 cells" -- "$V" examples/seeds/bank.glb --scale 1 --out "$T/a.json"
expect 0 "" -- "$V" examples/seeds/bank.glb --scale 1 --out "$T/b.json"
cmp -s "$T/a.json" "$T/b.json" || { echo "FAIL: two runs wrote different templates"; fail=1; }
grep -q '"sandstone"' "$T/a.json" || { echo "FAIL: bank.glb's sandstone walls are missing"; fail=1; }
expect 0 "64x" -- "$V" examples/seeds/house.glb --size 64 --fill surface --palette planks,bricks,stone --out "$T/c.json"
[ $fail = 0 ] && echo "strata-voxelize command line: ok"
exit $fail
