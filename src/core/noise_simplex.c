/* noise_simplex.c — seeded simplex noise in 2D and 3D (after Gustavson's "Simplex noise demystified").
 *
 * Design: the classic skew / unskew onto the simplex lattice with gradients picked by the seeded
 * permutation. Differences from the textbook code, all for speed or correctness:
 * - The kernel radius is r^2 = 0.5 in 3D as well as 2D (the original 0.6 lets a corner's contribution
 *   reach past the simplex and leaves small discontinuities).
 * - Corner ordering and the kernel cut-off are branch-free (compares to ints, max(t, 0)): the branches
 *   of the textbook version are random and mispredict about half the time.
 * - 2D uses 12 unit gradients 30 degrees apart (more isotropic than the 8 cube-edge projections).
 * - The output scales are the exact maxima of |sum of corner terms| over every position and every
 *   gradient choice (found numerically, see below), so the range is [-1, 1] and values near +-1 do
 *   occur; a clamp absorbs float rounding.
 * Scale derivation: for each point of a fundamental cell, every corner's contribution is maximised over
 * its gradient set independently (an upper bound that some lattice configuration attains); grid search
 * plus refinement gives 2D max 0.009837129 and 3D max 0.013006659. */
#include "strata/noise.h"

#include <math.h>

#include "noise_internal.h"

#define SIMPLEX_F2 0.366025403784f  /* (sqrt(3) - 1) / 2 */
#define SIMPLEX_G2 0.211324865405f  /* (3 - sqrt(3)) / 6 */
#define SIMPLEX_F3 0.333333333333f
#define SIMPLEX_G3 0.166666666667f
#define SIMPLEX2_SCALE 101.65568f   /* 1 / 0.009837129 */
#define SIMPLEX3_SCALE 76.883693f   /* 1 / 0.013006659 */

static const float SIMPLEX2_GX[12] = {1.0f, 0.866025404f, 0.5f, 0.0f, -0.5f, -0.866025404f,
                                      -1.0f, -0.866025404f, -0.5f, 0.0f, 0.5f, 0.866025404f};
static const float SIMPLEX2_GY[12] = {0.0f, 0.5f, 0.866025404f, 1.0f, 0.866025404f, 0.5f,
                                      0.0f, -0.5f, -0.866025404f, -1.0f, -0.866025404f, -0.5f};

/* The 12 cube-edge midpoints. */
static const float SIMPLEX3_GX[12] = {1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const float SIMPLEX3_GY[12] = {1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
static const float SIMPLEX3_GZ[12] = {0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};

static inline float kernel2(int g, float x, float y)
{
    float t = 0.5f - x * x - y * y;
    t = 0.5f * (t + fabsf(t)); /* max(t, 0) without a branch: t + |t| is 2t or 0, exactly */
    t *= t;
    return t * t * (SIMPLEX2_GX[g] * x + SIMPLEX2_GY[g] * y);
}

static inline float kernel3(int g, float x, float y, float z)
{
    float t = 0.5f - x * x - y * y - z * z;
    t = 0.5f * (t + fabsf(t));
    t *= t;
    return t * t * (SIMPLEX3_GX[g] * x + SIMPLEX3_GY[g] * y + SIMPLEX3_GZ[g] * z);
}

float noise_simplex2(const NoiseTable *t, float x, float y)
{
    float s = (x + y) * SIMPLEX_F2;
    int i = noise_floor(x + s);
    int j = noise_floor(y + s);
    float u = (float)(i + j) * SIMPLEX_G2;
    float x0 = x - ((float)i - u);
    float y0 = y - ((float)j - u);

    int i1 = x0 > y0;   /* lower triangle: step x first, else y first */
    int j1 = 1 - i1;
    float x1 = x0 - (float)i1 + SIMPLEX_G2;
    float y1 = y0 - (float)j1 + SIMPLEX_G2;
    float x2 = x0 - 1.0f + 2.0f * SIMPLEX_G2;
    float y2 = y0 - 1.0f + 2.0f * SIMPLEX_G2;

    int ii = i & 255, jj = j & 255;
    const uint8_t *p = t->perm, *p12 = t->perm12;
    int g0 = p12[ii + p[jj]];
    int g1 = p12[ii + i1 + p[jj + j1]];
    int g2 = p12[ii + 1 + p[jj + 1]];

    float n = kernel2(g0, x0, y0) + kernel2(g1, x1, y1) + kernel2(g2, x2, y2);
    return noise_clamp1(SIMPLEX2_SCALE * n);
}

float noise_simplex3(const NoiseTable *t, float x, float y, float z)
{
    float s = (x + y + z) * SIMPLEX_F3;
    int i = noise_floor(x + s);
    int j = noise_floor(y + s);
    int k = noise_floor(z + s);
    float u = (float)(i + j + k) * SIMPLEX_G3;
    float x0 = x - ((float)i - u);
    float y0 = y - ((float)j - u);
    float z0 = z - ((float)k - u);

    /* Rank the offsets (ties go x, then y, then z): the first step is along the largest, the second
     * adds the next largest. */
    int xy = x0 >= y0, xz = x0 >= z0, yz = y0 >= z0;
    int i1 = xy & xz, j1 = (!xy) & yz, k1 = (!xz) & (!yz);
    int i2 = xy | xz, j2 = (!xy) | yz, k2 = (!xz) | (!yz);

    float x1 = x0 - (float)i1 + SIMPLEX_G3, y1 = y0 - (float)j1 + SIMPLEX_G3, z1 = z0 - (float)k1 + SIMPLEX_G3;
    float x2 = x0 - (float)i2 + 2.0f * SIMPLEX_G3, y2 = y0 - (float)j2 + 2.0f * SIMPLEX_G3,
          z2 = z0 - (float)k2 + 2.0f * SIMPLEX_G3;
    float x3 = x0 - 1.0f + 3.0f * SIMPLEX_G3, y3 = y0 - 1.0f + 3.0f * SIMPLEX_G3, z3 = z0 - 1.0f + 3.0f * SIMPLEX_G3;

    int ii = i & 255, jj = j & 255, kk = k & 255;
    const uint8_t *p = t->perm, *p12 = t->perm12;
    int g0 = p12[ii + p[jj + p[kk]]];
    int g1 = p12[ii + i1 + p[jj + j1 + p[kk + k1]]];
    int g2 = p12[ii + i2 + p[jj + j2 + p[kk + k2]]];
    int g3 = p12[ii + 1 + p[jj + 1 + p[kk + 1]]];

    float n = kernel3(g0, x0, y0, z0) + kernel3(g1, x1, y1, z1) + kernel3(g2, x2, y2, z2) + kernel3(g3, x3, y3, z3);
    return noise_clamp1(SIMPLEX3_SCALE * n);
}
