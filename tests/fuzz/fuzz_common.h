/* fuzz_common.h — helpers shared by the libFuzzer targets in tests/fuzz/ (built by tests/fuzz.cmake in a
 * clang build with STRATA_FUZZ=ON; see scripts/fuzz.sh).
 *
 * Purpose: NUL-terminated copies of inputs for the text parsers, a private scratch folder for the parsers
 * that only read files, and silent logging. Ownership: fuzz_text returns a buffer the caller frees.
 * Threads: libFuzzer calls a target from one thread. */
#ifndef STRATA_FUZZ_COMMON_H
#define STRATA_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "strata/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A malloc'd NUL-terminated copy of the input (traps when out of memory). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) __builtin_trap();
    memcpy(text, data, size);
    text[size] = 0;
    return text;
}

/* A private folder for this process (in /dev/shm when there is one: no disk traffic), made once. */
static inline const char *fuzz_scratch_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        log_set_level(LOG_SILENT);
        snprintf(dir, sizeof dir, "%s/strata-fuzz-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(dir)) __builtin_trap();
    }
    return dir;
}

/* Writes the input to `path` (traps on failure: a fuzz run cannot go on without its scratch file). */
static inline void fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) __builtin_trap();
    if (size && fwrite(data, 1, size, f) != size) __builtin_trap();
    if (fclose(f) != 0) __builtin_trap();
}

#endif
