#!/bin/sh
# run_fuzz_codec.sh SOURCE_DIR OUT_DIR [SECONDS] — builds tests/fuzz_codec.c with clang's libFuzzer
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
if [ -z "$CLANG" ]; then echo "clang not found: skipping the codec fuzzer"; exit 77; fi

mkdir -p "$OUT/corpus"
# Does this clang have libFuzzer at all?
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$OUT/probe.c"
if ! "$CLANG" -fsanitize=fuzzer "$OUT/probe.c" -o "$OUT/probe" >"$OUT/probe.log" 2>&1; then
  echo "libFuzzer is not available for $CLANG: skipping the codec fuzzer"; cat "$OUT/probe.log"; exit 77
fi

if ! "$CLANG" -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
     -Wall -Wextra -Werror -I"$SRC/include" \
     "$SRC/tests/fuzz_codec.c" "$SRC/src/store/chunk_codec.c" "$SRC/src/core/error.c" \
     "$SRC/src/world/chunk.c" "$SRC/src/world/chunk_scratch.c" "$SRC/src/world/chunk_sections.c" "$SRC/src/core/log.c" \
     -lz -o "$OUT/fuzz_codec"; then
  echo "building the codec fuzzer failed"; exit 1
fi

cd "$OUT" || exit 1
# libFuzzer's default failure exit code is 77, which ctest would read as "skipped": use 1.
ASAN_OPTIONS=detect_leaks=1 ./fuzz_codec -max_total_time="$SECONDS_TO_RUN" -max_len=300000 -timeout=10 \
  -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 corpus >fuzz.log 2>&1
status=$?
tail -25 fuzz.log
if [ $status -ne 0 ]; then echo "the codec fuzzer found a failing input (see $OUT/crash-* and fuzz.log)"; exit 1; fi
exit 0
