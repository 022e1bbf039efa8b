/* noise_table.c — the per-seed permutation and octave frames behind the noise functions.
 *
 * Design: Survivalcraft's simplex uses one fixed permutation and moves the seed into coordinate
 * offsets, so terms that skip the offset are the same in every world. Here the permutation itself is a
 * Fisher-Yates shuffle of 0..255 driven by an Rng seeded from the 64-bit seed, so two seeds give
 * unrelated fields everywhere. The table is stored twice over (512 entries) so that lattice hashes of
 * the form perm[i + perm[j]] never need a wrap; perm12 caches perm % 12 for the 12-gradient sets.
 *
 * Octave frames: gradient noise is 0 on its lattice whatever the seed, so |n| (ridged terms) has the
 * same lattice-shaped envelope in every world, and with lacunarity 2 each octave's lattice contains the
 * previous one's. A random rotation and shift per octave breaks both alignments (the shift stays
 * under 16 cells so that it costs little float precision near the origin). The rotations are
 * built with + - * / only (rational half-angle form in 2D, an unnormalised quaternion in 3D): those are
 * correctly rounded in IEEE arithmetic, unlike sinf/cosf, whose last bit differs between C libraries,
 * so the frames are bit-identical on every machine. */
#include "strata/noise.h"
#include "strata/rng.h"

#define NOISE_TABLE_PURPOSE "noise.permutation"

/* A 2D rotation from t in [-1, 1]: cos = (1 - t^2) / (1 + t^2), sin = 2t / (1 + t^2), i.e. angles in
 * [-90, 90] degrees, which covers the simplex lattice's 60-degree symmetry. */
static void frame_rotation2(Rng *rng, float rot[2])
{
    float t = rng_float_range(rng, -1.0f, 1.0f);
    float d = 1.0f + t * t;
    rot[0] = (1.0f - t * t) / d;
    rot[1] = 2.0f * t / d;
}

/* A uniformly random 3D rotation: a quaternion drawn uniformly in the unit 4-ball (rejection), whose
 * direction is uniform on the 3-sphere; the matrix divides by its squared norm instead of normalising. */
static void frame_rotation3(Rng *rng, float m[9])
{
    float a, b, c, d, n;
    do {
        a = rng_float_range(rng, -1.0f, 1.0f);
        b = rng_float_range(rng, -1.0f, 1.0f);
        c = rng_float_range(rng, -1.0f, 1.0f);
        d = rng_float_range(rng, -1.0f, 1.0f);
        n = a * a + b * b + c * c + d * d;
    } while (n > 1.0f || n < 0.01f);
    float s = 2.0f / n;
    m[0] = 1.0f - s * (c * c + d * d);
    m[1] = s * (b * c - a * d);
    m[2] = s * (b * d + a * c);
    m[3] = s * (b * c + a * d);
    m[4] = 1.0f - s * (b * b + d * d);
    m[5] = s * (c * d - a * b);
    m[6] = s * (b * d - a * c);
    m[7] = s * (c * d + a * b);
    m[8] = 1.0f - s * (b * b + c * c);
}

void noise_table_init(NoiseTable *table, uint64_t seed)
{
    table->seed = seed;
    uint8_t p[256];
    for (int i = 0; i < 256; i++) p[i] = (uint8_t)i;
    Rng rng;
    rng_init(&rng, rng_derive(seed, NOISE_TABLE_PURPOSE));
    for (int i = 255; i > 0; i--) {
        int j = rng_int_range(&rng, 0, i);
        uint8_t tmp = p[i];
        p[i] = p[j];
        p[j] = tmp;
    }
    for (int i = 0; i < 512; i++) {
        table->perm[i] = p[i & 255];
        table->perm12[i] = (uint8_t)(p[i & 255] % 12);
    }
    for (int i = 0; i < NOISE_OCTAVE_FRAMES; i++) {
        frame_rotation2(&rng, table->rot2[i]);
        frame_rotation3(&rng, table->rot3[i]);
        for (int k = 0; k < 3; k++) table->shift[i][k] = rng_float_range(&rng, 0.0f, 16.0f);
    }
}
