/* noise_worley.c — seeded Worley (cellular) noise: distances to the nearest two feature points.
 *
 * Design: one feature point per unit cell, placed uniformly in the cell by an integer hash of the cell
 * and the seed (not the 256-periodic permutation, so the pattern never repeats). Results are exact:
 * most libraries search only the 3x3 (3x3x3) block, which is wrong whenever the second nearest point
 * sits two cells away and shows as seams in F2. Here the block is searched first, then the ring of cells
 * two away is visited only when the current F2 reaches past the block, and only those ring cells whose
 * box is nearer than F2. Points three cells away are at least 2 away, more than any possible F2 (the
 * own cell and the neighbour across the nearest face bound it by sqrt(2) in 2D, sqrt(3) in 3D), so the
 * 5x5 (5x5x5) neighbourhood is complete.
 * Distances are Euclidean, in cells. */
#include "strata/noise.h"
#include "strata/rng.h"

#include <math.h>

#include "noise_internal.h"

#define WORLEY_PURPOSE_TAG 0x5B1E7A3D2C4F6E81ull

/* murmur3's 32-bit finaliser over a linear mix of the cell coordinates. */
static inline uint32_t cell_hash2(uint32_t seed, int x, int y)
{
    uint32_t h = seed ^ ((uint32_t)x * 0x8DA6B343u) ^ ((uint32_t)y * 0xD8163841u);
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

static inline uint32_t cell_hash3(uint32_t seed, int x, int y, int z)
{
    uint32_t h = seed ^ ((uint32_t)x * 0x8DA6B343u) ^ ((uint32_t)y * 0xD8163841u) ^ ((uint32_t)z * 0xCB1AB31Fu);
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

static inline uint32_t worley_seed(const NoiseTable *t)
{
    return (uint32_t)rng_mix64(t->seed ^ WORLEY_PURPOSE_TAG);
}

static inline void keep_two(float d, float *f1, float *f2)
{
    if (d < *f1) {
        *f2 = *f1;
        *f1 = d;
    } else if (d < *f2) {
        *f2 = d;
    }
}

/* Squared distance from the sample (at fraction f in its cell) to the cell `offset` away, per axis. */
static inline float box_gap2(int offset, float f)
{
    float g = offset < 0 ? f + (float)(-offset - 1) : (offset > 0 ? (float)offset - f : 0.0f);
    return g * g;
}

/* ---- 2D ---- */

static inline void visit2(uint32_t seed, int cx, int cy, int dx, int dy, float fx, float fy, float *f1, float *f2)
{
    uint32_t h = cell_hash2(seed, cx + dx, cy + dy);
    /* 16 bits per axis, centred in their bins so points never sit on a cell edge. */
    float px = (float)dx + ((float)(h & 0xFFFFu) + 0.5f) * (1.0f / 65536.0f) - fx;
    float py = (float)dy + ((float)(h >> 16) + 0.5f) * (1.0f / 65536.0f) - fy;
    keep_two(px * px + py * py, f1, f2);
}

WorleyResult noise_worley2(const NoiseTable *t, float x, float y)
{
    uint32_t seed = worley_seed(t);
    int cx = noise_floor(x), cy = noise_floor(y);
    float fx = x - (float)cx, fy = y - (float)cy;
    float f1 = INFINITY, f2 = INFINITY;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) visit2(seed, cx, cy, dx, dy, fx, fy, &f1, &f2);

    float gx[5], gy[5];
    for (int o = -2; o <= 2; o++) {
        gx[o + 2] = box_gap2(o, fx);
        gy[o + 2] = box_gap2(o, fy);
    }
    float ring = fminf(fminf(gx[0], gx[4]), fminf(gy[0], gy[4]));
    if (f2 > ring) {
        for (int dy = -2; dy <= 2; dy++) {
            for (int dx = -2; dx <= 2; dx++) {
                if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1) continue;
                if (gx[dx + 2] + gy[dy + 2] >= f2) continue;
                visit2(seed, cx, cy, dx, dy, fx, fy, &f1, &f2);
            }
        }
    }
    WorleyResult r = {sqrtf(f1), sqrtf(f2)};
    return r;
}

/* ---- 3D ---- */

static inline void visit3(uint32_t seed, int cx, int cy, int cz, int dx, int dy, int dz, float fx, float fy,
                          float fz, float *f1, float *f2)
{
    uint32_t h = cell_hash3(seed, cx + dx, cy + dy, cz + dz);
    /* 10 bits per axis from one 32-bit hash: 1/1024 of a cell is far below any visible scale. */
    const float q = 1.0f / 1024.0f;
    float px = (float)dx + ((float)(h & 1023u) + 0.5f) * q - fx;
    float py = (float)dy + ((float)((h >> 10) & 1023u) + 0.5f) * q - fy;
    float pz = (float)dz + ((float)((h >> 20) & 1023u) + 0.5f) * q - fz;
    keep_two(px * px + py * py + pz * pz, f1, f2);
}

WorleyResult noise_worley3(const NoiseTable *t, float x, float y, float z)
{
    uint32_t seed = worley_seed(t);
    int cx = noise_floor(x), cy = noise_floor(y), cz = noise_floor(z);
    float fx = x - (float)cx, fy = y - (float)cy, fz = z - (float)cz;
    float f1 = INFINITY, f2 = INFINITY;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) visit3(seed, cx, cy, cz, dx, dy, dz, fx, fy, fz, &f1, &f2);

    float gx[5], gy[5], gz[5];
    for (int o = -2; o <= 2; o++) {
        gx[o + 2] = box_gap2(o, fx);
        gy[o + 2] = box_gap2(o, fy);
        gz[o + 2] = box_gap2(o, fz);
    }
    float ring = fminf(fminf(fminf(gx[0], gx[4]), fminf(gy[0], gy[4])), fminf(gz[0], gz[4]));
    if (f2 > ring) {
        for (int dz = -2; dz <= 2; dz++) {
            for (int dy = -2; dy <= 2; dy++) {
                float gyz = gy[dy + 2] + gz[dz + 2];
                if (gyz >= f2) continue;
                int inner_yz = dy >= -1 && dy <= 1 && dz >= -1 && dz <= 1;
                for (int dx = -2; dx <= 2; dx++) {
                    if (inner_yz && dx >= -1 && dx <= 1) continue;
                    if (gx[dx + 2] + gyz >= f2) continue;
                    visit3(seed, cx, cy, cz, dx, dy, dz, fx, fy, fz, &f1, &f2);
                }
            }
        }
    }
    WorleyResult r = {sqrtf(f1), sqrtf(f2)};
    return r;
}
