/* gen_math.h — private to src/gen: the generator's small math, shared by every pass and feature: vectors
 * and random directions, machine-independent sine and cosine, Survivalcraft-calibrated octaved noise,
 * squish / saturate / lerp and the RangeProbability trapezoid.
 *
 * Everything here is pure and thread safe. The generator's sources are compiled with -ffp-contract=off and
 * use no libm function whose rounding varies by CPU (sinf, powf): a world must have the same bits on every
 * machine. */
#ifndef STRATA_GEN_MATH_H
#define STRATA_GEN_MATH_H

#include <math.h>
#include "strata/noise.h"
#include "strata/rng.h"

/* ---- vectors and random directions (gen_math.c) ---- */

typedef struct GenVec3 { float x, y, z; } GenVec3;
static inline GenVec3 gen_vec3(float x, float y, float z) { GenVec3 v = {x, y, z}; return v; }
/* v / |v|, or (0, 0, 0) for the zero vector. */
GenVec3 gen_vec3_normalize(GenVec3 v);
/* A direction uniform on the unit sphere (rejection sampling in the unit cube). */
GenVec3 gen_rng_direction(Rng *rng);

/* ---- sine and cosine ---- */

/* Sine and cosine from plain arithmetic (range reduction and a degree-9 polynomial, |error| < 4e-6):
 * libm picks FMA or non-FMA variants of sinf/powf by CPU, which may round differently, and a world must
 * have the same bits on every machine. */
static inline float gen_sin(float x)
{
    float k = floorf(x * 0.159154943f + 0.5f);
    float r = x - k * 6.28318531f;
    if (r > 1.57079633f) r = 3.14159265f - r;
    else if (r < -1.57079633f) r = -3.14159265f - r;
    float r2 = r * r;
    return r * (1.0f + r2 * (-0.166666667f + r2 * (0.00833333333f + r2 * (-0.000198412698f + r2 * 2.75573192e-6f))));
}
static inline float gen_cos(float x) { return gen_sin(x + 1.57079633f); }

/* ---- noise ---- */

/* Survivalcraft's OctavedNoise over our simplex, calibrated: Survivalcraft's formulas (thresholds like
 * "3n - 1.1", squish bands) were tuned against its simplex, whose 2D output is narrower and 3D output wider
 * than ours (ours is scaled to its exact maximum). Rescaling the deviation from 0.5 by the measured ratio
 * of standard deviations (2D 0.2219 / 0.2762, 3D 0.2133 / 0.1960, over 2e5 samples) gives the fields the
 * distribution those formulas expect. */
#define GEN_SC_SCALE_2D 0.8034f
#define GEN_SC_SCALE_3D 1.0883f
static inline float gen_noise2(const NoiseTable *t, float x, float z, float frequency, int octaves, float frequency_step,
                               float amplitude_step)
{
    float n = noise_octaved2(t, x, z, frequency, octaves, frequency_step, amplitude_step, false);
    return 0.5f + (n - 0.5f) * GEN_SC_SCALE_2D;
}
static inline float gen_noise3(const NoiseTable *t, float x, float y, float z, float frequency, int octaves,
                               float frequency_step, float amplitude_step)
{
    float n = noise_octaved3(t, x, y, z, frequency, octaves, frequency_step, amplitude_step, false);
    n = 0.5f + (n - 0.5f) * GEN_SC_SCALE_3D;
    return n < 0.0f ? 0.0f : (n > 1.0f ? 1.0f : n);
}

/* ---- shaping ---- */

/* (v - zero) / (one - zero), clamped to 0..1. */
static inline float gen_squish(float v, float zero, float one)
{
    float t = (v - zero) / (one - zero);
    return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
}
static inline float gen_saturate(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }
static inline float gen_lerp(float a, float b, float t) { return a + (b - a) * t; }

/* Survivalcraft's RangeProbability trapezoid: 0 below a, rising to 1 at b, 1 to c, falling to 0 at d. */
typedef struct GenTrapezoid { float a, b, c, d; } GenTrapezoid;
float gen_range_probability(float v, GenTrapezoid t);

#endif
