#!/bin/sh
# run_fuzz_sparkterrain.sh SOURCE_DIR OUT_DIR [SECONDS] — builds tests/fuzz_sparkterrain.c (the .sparkterrain decoder) with clang's libFuzzer
# (-fsanitize=fuzzer,address,undefined) and runs it for a bounded time on a corpus kept in OUT_DIR.
# Exit 77 (ctest: skipped) when clang or libFuzzer is not installed; 1 when the fuzzer finds a failure
# (the crashing input is left in OUT_DIR as crash-*).
set -u
SRC=$1
OUT=$2
SECONDS_TO_RUN=${3:-20}

CLANG=""
for c in clang clang-16 clang-15 clang-14; do
  if command -v "$c" >/dev/null 2>&1; then CLANG=$(command -v "$c"); break; fi
done
if [ -z "$CLANG" ]; then echo "clang not found: skipping the sparkterrain fuzzer"; exit 77; fi

mkdir -p "$OUT/corpus"
# Does this clang have libFuzzer at all?
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$OUT/probe.c"
if ! "$CLANG" -fsanitize=fuzzer "$OUT/probe.c" -o "$OUT/probe" >"$OUT/probe.log" 2>&1; then
  echo "libFuzzer is not available for $CLANG: skipping the sparkterrain fuzzer"; cat "$OUT/probe.log"; exit 77
fi

if ! "$CLANG" -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
     -Wall -Wextra -Werror -I"$SRC/include" \
     "$SRC/tests/fuzz_sparkterrain.c" "$SRC/src/heightfield/heightfield_io_spark.c" "$SRC/src/heightfield/heightfield.c" "$SRC/src/core/error.c" \
     -lm -o "$OUT/fuzz_sparkterrain"; then
  echo "building the sparkterrain fuzzer failed"; exit 1
fi

cd "$OUT" || exit 1
# A seed input: a valid 2x1 map with one texture layer, so mutations start past the header.
printf 'SPKT\002\000\000\000\002\000\000\000\001\000\000\000\000\000\200\077\000\000\200\077\001\000\000\000\000\000\000\200\077\000\000\000\000\001\000\000\000\004\000\000\000rock\001\000\000\000r\000\000\200\077' > corpus/seed-valid
# libFuzzer's default failure exit code is 77, which ctest would read as "skipped": use 1.
ASAN_OPTIONS=detect_leaks=1 ./fuzz_sparkterrain -max_total_time="$SECONDS_TO_RUN" -max_len=300000 -timeout=10 \
  -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 corpus >fuzz.log 2>&1
status=$?
tail -25 fuzz.log
if [ $status -ne 0 ]; then echo "the sparkterrain fuzzer found a failing input (see $OUT/crash-* and fuzz.log)"; exit 1; fi
exit 0
