/* noise.h — the noise library: seeded simplex, Perlin, Worley; octaved, FBM, ridged, domain warp.
 *
 * Every function takes a 64-bit seed: different seeds give unrelated fields (the permutation is derived
 * from the seed, not an offset), so no term of the terrain is the same in two worlds.
 * Ranges (tested): simplex/perlin in [-1, 1]; noise_octaved in [0, 1] (Survivalcraft's OctavedNoise
 * signature); noise_fbm in [-1, 1]; noise_ridged in [0, 1]; worley F1/F2 >= 0 (distance in cells).
 * A NoiseTable caches the seed's permutation and octave frames; building it costs ~1 us, evaluating is
 * allocation-free.
 * Thread safety: a NoiseTable is immutable after noise_table_init and may be shared by threads. */
#ifndef STRATA_NOISE_H
#define STRATA_NOISE_H

#include <stdbool.h>
#include <stdint.h>

/* Octave i of the fractal functions uses frame i % NOISE_OCTAVE_FRAMES. */
#define NOISE_OCTAVE_FRAMES 8

typedef struct NoiseTable {
    uint64_t seed;
    uint8_t perm[512];     /* permutation of 0..255, repeated */
    uint8_t perm12[512];   /* perm % 12 for 3D gradients */
    /* Per-octave frames of the fractal functions, drawn from the seed: octave i samples simplex at
     * rot * (p * frequency) + shift, so octaves and worlds never share lattice alignment. */
    float rot2[NOISE_OCTAVE_FRAMES][2];   /* cos, sin of a 2D rotation */
    float rot3[NOISE_OCTAVE_FRAMES][9];   /* row-major 3x3 rotation */
    float shift[NOISE_OCTAVE_FRAMES][3];  /* in [0, 16) cells */
} NoiseTable;

void noise_table_init(NoiseTable *table, uint64_t seed);

/* Simplex noise, range [-1, 1]. */
float noise_simplex2(const NoiseTable *t, float x, float y);
float noise_simplex3(const NoiseTable *t, float x, float y, float z);
/* Improved Perlin noise, range [-1, 1]. */
float noise_perlin2(const NoiseTable *t, float x, float y);
float noise_perlin3(const NoiseTable *t, float x, float y, float z);

/* Worley (cellular) noise: distances to the nearest (f1) and second nearest (f2) feature point, one
 * jittered point per unit cell. f1 in [0, ~1.5], f2 >= f1. Exact (no missed points at cell borders);
 * not periodic. Bounds: f2 <= sqrt(2) in 2D, sqrt(3) in 3D; typical f1 maxima are ~1.2. */
typedef struct WorleyResult { float f1, f2; } WorleyResult;
WorleyResult noise_worley2(const NoiseTable *t, float x, float y);
WorleyResult noise_worley3(const NoiseTable *t, float x, float y, float z);

/* Survivalcraft's OctavedNoise: sum of `octaves` simplex octaves starting at `frequency`, each octave's
 * frequency times `frequency_step` and amplitude times `amplitude_step`, normalised to [0, 1]. `ridged`
 * folds each octave (1 - |n|). In all fractal functions below, octave i is sampled in its own seeded
 * frame (rotation and shift, see NoiseTable), so ridges and octaves do not line up with one lattice
 * in every world; with one octave, noise_octaved2(x, y, f, 1, ...) == (noise_fbm2(x * f, y * f, 1, ...)
 * + 1) / 2. octaves < 1 counts as 1. */
float noise_octaved2(const NoiseTable *t, float x, float y, float frequency, int octaves,
                     float frequency_step, float amplitude_step, bool ridged);
float noise_octaved3(const NoiseTable *t, float x, float y, float z, float frequency, int octaves,
                     float frequency_step, float amplitude_step, bool ridged);

/* Fractal Brownian motion over simplex, range [-1, 1] (normalised by the amplitude sum). */
float noise_fbm2(const NoiseTable *t, float x, float y, int octaves, float lacunarity, float gain);
float noise_fbm3(const NoiseTable *t, float x, float y, float z, int octaves, float lacunarity, float gain);

/* Musgrave's ridged multifractal, range [0, 1]. Spectral exponent H = 1 (octave i weighs
 * lacunarity^-i); `gain` feeds each octave's signal into the next one's weight (2 is typical), `offset`
 * is the ridge height (1 is typical). */
float noise_ridged2(const NoiseTable *t, float x, float y, int octaves, float lacunarity, float gain, float offset);

/* Domain warping: displaces (x, y) by `strength` times two decorrelated fbm fields (lacunarity 2, gain
 * 0.5, sampled at (x, y) * frequency), in place. Each coordinate moves by at most `strength`. */
void noise_warp2(const NoiseTable *t, float *x, float *y, float frequency, float strength, int octaves);

#endif
