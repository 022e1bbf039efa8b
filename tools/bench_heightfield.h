/* bench_heightfield.h — strata-bench's heightfield figures (erosion and import), kept out of
 * strata-bench.c. Thread safety: call from one thread. */
#ifndef STRATA_BENCH_HEIGHTFIELD_H
#define STRATA_BENCH_HEIGHTFIELD_H

#include <stdio.h>
#include "strata/error.h"

typedef struct BenchHeightfield {
    double erosion_hydraulic_droplets_per_s;  /* 1025x1025, default parameters (200,000 droplets) */
    double erosion_thermal_ms;                /* 1025x1025, 50 iterations */
    double import_r16_4097_ms;                /* 4097x4097 .r16 from a temp file */
} BenchHeightfield;

StResult bench_heightfield_run(BenchHeightfield *out);
/* Prints `, "erosion_hydraulic_droplets_per_s": ..., ...` (to splice into the JSON object). */
void bench_heightfield_print_json(FILE *f, const BenchHeightfield *r);
void bench_heightfield_print_table(FILE *f, const BenchHeightfield *r);

#endif
