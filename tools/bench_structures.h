/* bench_structures.h — strata-bench's structure figures (flat-zone lookups, WFC solving), kept out of
 * strata-bench.c. Thread safety: call from one thread. */
#ifndef STRATA_BENCH_STRUCTURES_H
#define STRATA_BENCH_STRUCTURES_H

#include <stdio.h>
#include "strata/error.h"

typedef struct BenchStructures {
    double flat_zone_lookup_ns;   /* one flat_zone_set_at over 2,000 zones (tile 64), random points */
    double wfc_solve_ms;          /* assets/tilesets/dungeon.json on 12x3x12, mean over seeds */
} BenchStructures;

StResult bench_structures_run(BenchStructures *out);
void bench_structures_print_json(FILE *f, const BenchStructures *r);
void bench_structures_print_table(FILE *f, const BenchStructures *r);

#endif
