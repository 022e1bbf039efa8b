/* bench_memory.h — strata-bench's memory figures (tools/bench_memory.c): resident bytes per loaded chunk,
 * sections by kind, and process RSS with a world ready at view distances 16 and 32 (a child strata-bench,
 * no window) and of the real game at 8 (the `strata` binary beside strata-bench, SDL's offscreen driver).
 * Tool-private; main thread only. */
#ifndef STRATA_BENCH_MEMORY_H
#define STRATA_BENCH_MEMORY_H

#include <stdbool.h>
#include <stdio.h>
#include "strata/block.h"
#include "strata/chunk_sections.h"
#include "strata/error.h"

typedef struct BenchMemory {
    double chunk_resident_bytes_median, chunk_resident_bytes_p95;
    double chunk_resident_bytes_median_idle; /* strata-bench: the median above once idle packing is done
                                              * (chunk_resident_bytes_median is then the one at world ready) */
    int chunks;                          /* chunks measured (seeds 1 and 2) */
    long sections[SECTION_KIND_COUNT];   /* their sections by kind */
    double rss_mb_vd16, rss_mb_vd32;     /* -1 when the probe failed */
    double rss_mb_game_vd8;              /* -1 when the game could not be run */
} BenchMemory;

/* Runs everything (strata-bench finds itself and the game through /proc/self/exe). */
StResult bench_memory_run(const char *asset_dir, const BlockRegistry *blocks, BenchMemory *out);
/* The child mode `strata-bench --memory-probe N ASSET_DIR`: loads seed 1 at view distance N, waits until
 * the world is ready and packed, prints its VmRSS in MB. Returns the exit status. */
int bench_memory_probe_main(int argc, char **argv);
/* The keys (", \"chunk_resident_bytes_median\": ...", to follow other keys) and the table lines. */
void bench_memory_print_json(FILE *f, const BenchMemory *m);
void bench_memory_print_table(FILE *f, const BenchMemory *m);
/* VmRSS of a process in MB (pid 0: this one), -1 when unreadable. */
double bench_memory_rss_mb(int pid);

#endif
