/* heightfield.h — a float height grid: sampling (nearest, bilinear, bicubic), slope and normal,
 * statistics, resampling, remapping.
 *
 * A Heightfield is a plain value type (heightfield_init / heightfield_free): width x height floats, row
 * major (index x + y * width, y grows "south"), with `spacing` world units between samples horizontally.
 * Heights are in whatever unit the caller uses (blocks for the game). The struct owns `heights`.
 * Sampling coordinates are in samples (x in [0, width-1]); outside the grid they clamp to the edge.
 * heightfield_sample_world maps world x, z through a map scale (blocks per sample) for generators.
 * Thread safety: a heightfield that nobody writes (e.g. immutable after load) may be sampled from any
 * number of threads: every sampling and statistics function is pure and allocation-free. */
#ifndef STRATA_HEIGHTFIELD_H
#define STRATA_HEIGHTFIELD_H

#include <stddef.h>
#include "strata/error.h"

/* Largest accepted side, in samples (a 16384^2 map is 1 GiB of floats). */
#define HEIGHTFIELD_MAX_SIDE 16384

typedef struct Heightfield {
    int width, height;   /* samples, 1..HEIGHTFIELD_MAX_SIDE */
    float spacing;       /* world units between neighbouring samples (> 0; 1 by default) */
    float *heights;      /* width * height values, owned */
} Heightfield;

typedef struct HeightfieldStats {
    float min, max;
    double mean;
} HeightfieldStats;

/* A zeroed width x height grid with spacing 1. ST_ERR_ARG for sizes outside 1..HEIGHTFIELD_MAX_SIDE,
 * ST_ERR_NOMEM. On failure *hf is left empty (heights NULL). */
StResult heightfield_init(Heightfield *hf, int width, int height);
/* Frees the heights; safe on an empty or zeroed struct. */
void heightfield_free(Heightfield *hf);
/* Deep copy into *dst (which must not own memory). */
StResult heightfield_copy(const Heightfield *src, Heightfield *dst);

/* The sample at (x, y), clamped to the grid. */
static inline float heightfield_at(const Heightfield *hf, int x, int y)
{
    x = x < 0 ? 0 : (x >= hf->width ? hf->width - 1 : x);
    y = y < 0 ? 0 : (y >= hf->height ? hf->height - 1 : y);
    return hf->heights[(size_t)y * (size_t)hf->width + (size_t)x];
}

/* Interpolated height at fractional sample coordinates (clamped at the edges). Bicubic is Catmull-Rom
 * (passes through the samples, C1 continuous: scaled-up maps do not look terraced). */
float heightfield_sample_bilinear(const Heightfield *hf, float x, float y);
float heightfield_sample_bicubic(const Heightfield *hf, float x, float y);
/* Bicubic height at world (x, z) when one sample covers `blocks_per_sample` world units, sample (0, 0)
 * sitting at world (0, 0). Cheap and thread-safe: for generators sampling a loaded map. */
float heightfield_sample_world(const Heightfield *hf, float world_x, float world_z, float blocks_per_sample);

/* Height gradient (dh/dx, dh/dy per world unit, central differences over `spacing`) at a sample. */
void heightfield_gradient(const Heightfield *hf, int x, int y, float *dhdx, float *dhdy);
/* Slope at a sample as rise over run (|gradient|); 1 = 45 degrees. */
float heightfield_slope(const Heightfield *hf, int x, int y);
/* Unit surface normal at a sample (y up: {-dh/dx, 1, -dh/dy} normalised). */
void heightfield_normal(const Heightfield *hf, int x, int y, float normal[3]);

/* Minimum, maximum and mean (mean in double over all samples). */
HeightfieldStats heightfield_stats(const Heightfield *hf);

/* A bicubic resample of src to width x height into *dst (corners map to corners); dst->spacing scales so
 * the world extent stays the same. */
StResult heightfield_resample(const Heightfield *src, int width, int height, Heightfield *dst);
/* Linear remap of all samples so [from_min, from_max] becomes [to_min, to_max] (from_min == from_max
 * maps everything to to_min). */
void heightfield_remap(Heightfield *hf, float from_min, float from_max, float to_min, float to_max);
/* Mirror rows top to bottom. */
void heightfield_flip_vertical(Heightfield *hf);
/* Clamp every sample into [lo, hi]. */
void heightfield_clamp(Heightfield *hf, float lo, float hi);

#endif
