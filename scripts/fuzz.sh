#!/bin/sh
# fuzz.sh TARGET [SECONDS] — builds the libFuzzer targets (clang, ASan+UBSan) into build-fuzz/ if needed and
# runs fuzz_TARGET for SECONDS (default 60) on a corpus kept in build-fuzz/corpus/TARGET, seeded from
# tests/fuzz_corpus/TARGET. Prints the execution count. `fuzz.sh --build-only` only builds.
# Targets: codec region world_file script blocks worldgen.
# Environment: STRATA_FUZZ_BUILD (the build folder; default <repo>/build-fuzz), STRATA_FUZZ_JOBS (default 2).
# Exit: 0 clean, 1 a failing input (left as build-fuzz/crash-* and named in the log) or a build failure,
# 77 clang or libFuzzer missing (ctest: skipped).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${STRATA_FUZZ_BUILD:-$ROOT/build-fuzz}
JOBS=${STRATA_FUZZ_JOBS:-2}
TARGET=${1:?usage: fuzz.sh TARGET [SECONDS] | fuzz.sh --build-only}
SECONDS_TO_RUN=${2:-60}

CLANG=""
for c in clang clang-16 clang-15 clang-14; do
  if command -v "$c" >/dev/null 2>&1; then CLANG=$(command -v "$c"); break; fi
done
if [ -z "$CLANG" ]; then echo "clang not found: skipping the fuzzers"; exit 77; fi
mkdir -p "$BUILD"
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$BUILD/probe.c"
if ! "$CLANG" -fsanitize=fuzzer "$BUILD/probe.c" -o "$BUILD/probe" >"$BUILD/probe.log" 2>&1; then
  echo "libFuzzer is not available for $CLANG: skipping the fuzzers"; cat "$BUILD/probe.log"; exit 77
fi

# One build at a time per folder (ctest runs several fuzz tests in parallel).
build() {
  if [ ! -f "$BUILD/CMakeCache.txt" ]; then
    CC="$CLANG" cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTRATA_FUZZ=ON \
      -DSTRATA_BUILD_GAME=OFF -DSTRATA_WERROR=OFF >"$BUILD/configure.log" 2>&1 || { cat "$BUILD/configure.log"; return 1; }
  fi
  cmake --build "$BUILD" -j"$JOBS" --target fuzz_all >"$BUILD/build.log" 2>&1 || { tail -40 "$BUILD/build.log"; return 1; }
}
if command -v flock >/dev/null 2>&1; then
  ( flock 9 && build ) 9>"$BUILD/.build.lock" || { echo "building the fuzzers failed"; exit 1; }
else
  build || { echo "building the fuzzers failed"; exit 1; }
fi
[ "$TARGET" = "--build-only" ] && { echo "fuzzers built in $BUILD"; exit 0; }

BIN="$BUILD/fuzz_$TARGET"
[ -x "$BIN" ] || { echo "no fuzz target '$TARGET' (codec region world_file script blocks worldgen)"; exit 1; }
case "$TARGET" in
  codec) MAX_LEN=300000 ;;
  region) MAX_LEN=65536 ;;
  blocks|worldgen) MAX_LEN=32768 ;;
  *) MAX_LEN=8192 ;;
esac
CORPUS="$BUILD/corpus/$TARGET"
mkdir -p "$CORPUS"
SEEDS="$ROOT/tests/fuzz_corpus/$TARGET"
[ -d "$SEEDS" ] || SEEDS=""
LOG="$BUILD/fuzz_$TARGET.log"
# libFuzzer's default failure exit code is 77, which ctest would read as "skipped": use 1.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$BIN" -max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" \
  -timeout=10 -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 -artifact_prefix="$BUILD/" \
  "$CORPUS" $SEEDS >"$LOG" 2>&1
status=$?
tail -n 15 "$LOG"
EXECS=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG" | tail -n 1)
echo "fuzz_$TARGET: ${EXECS:-?} executions in ${SECONDS_TO_RUN} s (log: $LOG)"
if [ $status -ne 0 ]; then echo "fuzz_$TARGET found a failing input (see $BUILD/crash-* and $LOG)"; exit 1; fi
exit 0
