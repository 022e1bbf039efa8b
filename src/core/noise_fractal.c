/* noise_fractal.c — sums of simplex octaves: Survivalcraft's OctavedNoise, fBm, ridged multifractal,
 * domain warp.
 *
 * Design: each function is a plain loop over simplex octaves; the normalisation is what makes the
 * documented ranges hold for any parameters, not only the usual ones:
 * - noise_octaved maps each octave to [0, 1] ((n + 1) / 2, or 1 - |n| when ridged) and divides by the sum
 *   of |amplitudes|, as Survivalcraft's OctavedNoise does; with a negative amplitude step the weighted
 *   mean can leave [0, 1], so the result is clamped.
 * - noise_fbm divides by the sum of |amplitudes| (range [-1, 1]).
 * - noise_ridged is Musgrave's ridged multifractal with spectral exponent H = 1 (octave i weighs
 *   lacunarity^-i): signal = (offset - |n|)^2, each octave weighted by the previous signal times gain
 *   (clamped to [0, 1]). Every signal is at most max(offset^2, (offset - 1)^2), so dividing by that
 *   times the weight sum bounds the result to [0, 1].
 * Octave counts below 1 are treated as 1 (a zero sum would divide by zero).
 * Every octave is sampled in its own frame from the NoiseTable (rotation, then shift; see
 * noise_table.c for why). The rotation costs 4 (2D) or 9 (3D) multiplies per octave, ~1-2 ns next to
 * the ~15-25 ns of a simplex sample. */
#include "strata/noise.h"

#include <math.h>

static inline int at_least_one(int octaves)
{
    return octaves < 1 ? 1 : octaves;
}

static inline float clamp01(float v)
{
    return v > 1.0f ? 1.0f : (v < 0.0f ? 0.0f : v);
}

static inline float clamp11(float v)
{
    return v > 1.0f ? 1.0f : (v < -1.0f ? -1.0f : v);
}

/* Octave i's sample point: the seeded frame applied to the scaled position. */
static inline void frame2(const NoiseTable *t, int i, float x, float y, float *ox, float *oy)
{
    const float *r = t->rot2[i & (NOISE_OCTAVE_FRAMES - 1)], *s = t->shift[i & (NOISE_OCTAVE_FRAMES - 1)];
    *ox = r[0] * x - r[1] * y + s[0];
    *oy = r[1] * x + r[0] * y + s[1];
}

static inline void frame3(const NoiseTable *t, int i, float x, float y, float z, float *ox, float *oy, float *oz)
{
    const float *m = t->rot3[i & (NOISE_OCTAVE_FRAMES - 1)], *s = t->shift[i & (NOISE_OCTAVE_FRAMES - 1)];
    *ox = m[0] * x + m[1] * y + m[2] * z + s[0];
    *oy = m[3] * x + m[4] * y + m[5] * z + s[1];
    *oz = m[6] * x + m[7] * y + m[8] * z + s[2];
}

static inline float octave2(const NoiseTable *t, int i, float x, float y)
{
    float ox, oy;
    frame2(t, i, x, y, &ox, &oy);
    return noise_simplex2(t, ox, oy);
}

static inline float octave3(const NoiseTable *t, int i, float x, float y, float z)
{
    float ox, oy, oz;
    frame3(t, i, x, y, z, &ox, &oy, &oz);
    return noise_simplex3(t, ox, oy, oz);
}

/* ---- Survivalcraft's OctavedNoise ---- */

float noise_octaved2(const NoiseTable *t, float x, float y, float frequency, int octaves,
                     float frequency_step, float amplitude_step, bool ridged)
{
    octaves = at_least_one(octaves);
    float sum = 0.0f, norm = 0.0f, amplitude = 1.0f;
    for (int i = 0; i < octaves; i++) {
        float n = octave2(t, i, x * frequency, y * frequency);
        float v = ridged ? 1.0f - fabsf(n) : 0.5f * (n + 1.0f);
        sum += amplitude * v;
        norm += fabsf(amplitude);
        frequency *= frequency_step;
        amplitude *= amplitude_step;
    }
    return norm > 0.0f ? clamp01(sum / norm) : 0.5f;
}

float noise_octaved3(const NoiseTable *t, float x, float y, float z, float frequency, int octaves,
                     float frequency_step, float amplitude_step, bool ridged)
{
    octaves = at_least_one(octaves);
    float sum = 0.0f, norm = 0.0f, amplitude = 1.0f;
    for (int i = 0; i < octaves; i++) {
        float n = octave3(t, i, x * frequency, y * frequency, z * frequency);
        float v = ridged ? 1.0f - fabsf(n) : 0.5f * (n + 1.0f);
        sum += amplitude * v;
        norm += fabsf(amplitude);
        frequency *= frequency_step;
        amplitude *= amplitude_step;
    }
    return norm > 0.0f ? clamp01(sum / norm) : 0.5f;
}

/* ---- fBm ---- */

float noise_fbm2(const NoiseTable *t, float x, float y, int octaves, float lacunarity, float gain)
{
    octaves = at_least_one(octaves);
    float sum = 0.0f, norm = 0.0f, amplitude = 1.0f, frequency = 1.0f;
    for (int i = 0; i < octaves; i++) {
        sum += amplitude * octave2(t, i, x * frequency, y * frequency);
        norm += fabsf(amplitude);
        frequency *= lacunarity;
        amplitude *= gain;
    }
    return norm > 0.0f ? clamp11(sum / norm) : 0.0f;
}

float noise_fbm3(const NoiseTable *t, float x, float y, float z, int octaves, float lacunarity, float gain)
{
    octaves = at_least_one(octaves);
    float sum = 0.0f, norm = 0.0f, amplitude = 1.0f, frequency = 1.0f;
    for (int i = 0; i < octaves; i++) {
        sum += amplitude * octave3(t, i, x * frequency, y * frequency, z * frequency);
        norm += fabsf(amplitude);
        frequency *= lacunarity;
        amplitude *= gain;
    }
    return norm > 0.0f ? clamp11(sum / norm) : 0.0f;
}

/* ---- ridged multifractal ---- */

float noise_ridged2(const NoiseTable *t, float x, float y, int octaves, float lacunarity, float gain, float offset)
{
    octaves = at_least_one(octaves);
    float peak = fmaxf(offset * offset, (offset - 1.0f) * (offset - 1.0f));
    float spectral = (lacunarity > 0.0f) ? 1.0f / lacunarity : 1.0f;
    float sum = 0.0f, norm = 0.0f, amplitude = 1.0f, frequency = 1.0f, weight = 1.0f;
    for (int i = 0; i < octaves; i++) {
        float signal = offset - fabsf(octave2(t, i, x * frequency, y * frequency));
        signal *= signal;
        signal *= weight;
        weight = clamp01(signal * gain);
        sum += signal * amplitude;
        norm += amplitude;
        frequency *= lacunarity;
        amplitude *= spectral;
    }
    float den = peak * norm;
    return den > 0.0f ? clamp01(sum / den) : 0.0f;
}

/* ---- domain warp ---- */

/* Offsets that move the two displacement fields far apart on the lattice, so they are uncorrelated. */
#define WARP_OFFSET_AX 31.416f
#define WARP_OFFSET_AY 47.853f
#define WARP_OFFSET_BX 113.27f
#define WARP_OFFSET_BY 171.61f

void noise_warp2(const NoiseTable *t, float *x, float *y, float frequency, float strength, int octaves)
{
    float sx = *x * frequency, sy = *y * frequency;
    float dx = noise_fbm2(t, sx + WARP_OFFSET_AX, sy + WARP_OFFSET_AY, octaves, 2.0f, 0.5f);
    float dy = noise_fbm2(t, sx + WARP_OFFSET_BX, sy + WARP_OFFSET_BY, octaves, 2.0f, 0.5f);
    *x += strength * dx;
    *y += strength * dy;
}
