/* bench_edit.h — strata-bench's editing figures (tools/bench_edit.c): main-thread time of a radius-16
 * sphere brush, a radius-16 flatten and the undo of the sphere, on loaded chunks of the given generator
 * (worker time excluded). Medians in microseconds. edit_visible_frames: frames from a radius-8 sphere stroke
 * to its last changed chunk remeshed and uploaded on screen, measured by running the real game (the `strata`
 * binary beside strata-bench) under SDL's offscreen driver with a brush_visible_within script; the median of
 * 3 strokes, or -1 when the game could not run here (no binary, no GL context). */
#ifndef STRATA_TOOLS_BENCH_EDIT_H
#define STRATA_TOOLS_BENCH_EDIT_H

#include <stdint.h>

#include "strata/block.h"
#include "strata/error.h"
#include "strata/generator.h"

typedef struct BenchEditResults {
    double brush_sphere_r16_us, flatten_r16_us, undo_r16_us;
    double edit_visible_frames;
} BenchEditResults;

StResult bench_edit_run(const Generator *gen, const BlockRegistry *blocks, BenchEditResults *out);
/* Sets out->edit_visible_frames (never fails: -1 with a note on stderr when the game cannot run). */
void bench_edit_visible_frames(uint64_t seed, int view_distance, BenchEditResults *out);

#endif
