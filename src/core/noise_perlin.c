/* noise_perlin.c — seeded improved Perlin noise (Perlin 2002) in 2D and 3D.
 *
 * Design: gradient noise on the integer lattice with the quintic fade 6t^5 - 15t^4 + 10t^3 and the
 * seeded permutation for corner hashes. 3D uses Perlin's 12 cube-edge gradients chosen by perm % 12
 * (uniform, unlike the hash & 15 trick that repeats four of them); 2D uses 8 unit gradients 45 degrees
 * apart. Output scales are exact maxima over all positions and gradient choices (found numerically):
 * 2D max sqrt(2)/2 at the cell centre, 3D max 1.0363526 (slightly off-centre, so the often quoted
 * "[-1, 1]" of raw improved noise is a small overshoot). After scaling the range is [-1, 1]. */
#include "strata/noise.h"

#include "noise_internal.h"

#define PERLIN2_SCALE 1.41421356f  /* 1 / (sqrt(2) / 2) */
#define PERLIN3_SCALE 0.96492257f  /* 1 / 1.0363526 */

static const float PERLIN2_GX[8] = {1.0f, 0.707106781f, 0.0f, -0.707106781f, -1.0f, -0.707106781f, 0.0f, 0.707106781f};
static const float PERLIN2_GY[8] = {0.0f, 0.707106781f, 1.0f, 0.707106781f, 0.0f, -0.707106781f, -1.0f, -0.707106781f};

static const float PERLIN3_GX[12] = {1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const float PERLIN3_GY[12] = {1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
static const float PERLIN3_GZ[12] = {0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};

static inline float fade(float t)
{
    return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);
}

static inline float lerp(float a, float b, float t)
{
    return a + t * (b - a);
}

static inline float grad2(int h, float x, float y)
{
    h &= 7;
    return PERLIN2_GX[h] * x + PERLIN2_GY[h] * y;
}

static inline float grad3(int g, float x, float y, float z)
{
    return PERLIN3_GX[g] * x + PERLIN3_GY[g] * y + PERLIN3_GZ[g] * z;
}

float noise_perlin2(const NoiseTable *t, float x, float y)
{
    int xi = noise_floor(x), yi = noise_floor(y);
    float xf = x - (float)xi, yf = y - (float)yi;
    int X = xi & 255, Y = yi & 255;
    const uint8_t *p = t->perm;
    int a = p[X] + Y, b = p[X + 1] + Y;
    float u = fade(xf), v = fade(yf);
    float n0 = lerp(grad2(p[a], xf, yf), grad2(p[b], xf - 1.0f, yf), u);
    float n1 = lerp(grad2(p[a + 1], xf, yf - 1.0f), grad2(p[b + 1], xf - 1.0f, yf - 1.0f), u);
    return noise_clamp1(PERLIN2_SCALE * lerp(n0, n1, v));
}

float noise_perlin3(const NoiseTable *t, float x, float y, float z)
{
    int xi = noise_floor(x), yi = noise_floor(y), zi = noise_floor(z);
    float xf = x - (float)xi, yf = y - (float)yi, zf = z - (float)zi;
    int X = xi & 255, Y = yi & 255, Z = zi & 255;
    const uint8_t *p = t->perm, *p12 = t->perm12;
    int a = p[X] + Y, aa = p[a] + Z, ab = p[a + 1] + Z;
    int b = p[X + 1] + Y, ba = p[b] + Z, bb = p[b + 1] + Z;
    float u = fade(xf), v = fade(yf), w = fade(zf);
    float x1 = xf - 1.0f, y1 = yf - 1.0f, z1 = zf - 1.0f;

    float n00 = lerp(grad3(p12[aa], xf, yf, zf), grad3(p12[ba], x1, yf, zf), u);
    float n10 = lerp(grad3(p12[ab], xf, y1, zf), grad3(p12[bb], x1, y1, zf), u);
    float n01 = lerp(grad3(p12[aa + 1], xf, yf, z1), grad3(p12[ba + 1], x1, yf, z1), u);
    float n11 = lerp(grad3(p12[ab + 1], xf, y1, z1), grad3(p12[bb + 1], x1, y1, z1), u);
    float n = lerp(lerp(n00, n10, v), lerp(n01, n11, v), w);
    return noise_clamp1(PERLIN3_SCALE * n);
}
