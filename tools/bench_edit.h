/* bench_edit.h — strata-bench's editing figures (tools/bench_edit.c): main-thread time of a radius-16
 * sphere brush, a radius-16 flatten and the undo of the sphere, on loaded chunks of the given generator
 * (worker time excluded). Medians in microseconds. */
#ifndef STRATA_TOOLS_BENCH_EDIT_H
#define STRATA_TOOLS_BENCH_EDIT_H

#include "strata/block.h"
#include "strata/error.h"
#include "strata/generator.h"

typedef struct BenchEditResults {
    double brush_sphere_r16_us, flatten_r16_us, undo_r16_us;
} BenchEditResults;

StResult bench_edit_run(const Generator *gen, const BlockRegistry *blocks, BenchEditResults *out);

#endif
