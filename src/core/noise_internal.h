/* noise_internal.h — helpers shared by the noise files (private to src/core). */
#ifndef STRATA_NOISE_INTERNAL_H
#define STRATA_NOISE_INTERNAL_H

#include <stdint.h>

/* floor() for the lattice: one truncation and a compare, no libm call. Exact for |x| < 2^31. */
static inline int noise_floor(float x)
{
    int i = (int)x;
    return i - (x < (float)i);
}

static inline float noise_clamp1(float v)
{
    return v > 1.0f ? 1.0f : (v < -1.0f ? -1.0f : v);
}

#endif
