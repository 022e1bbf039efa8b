/* heightfield.c — the float grid: allocation, sampling, slope/normal, statistics, resampling.
 *
 * Design: all samplers clamp coordinates to the grid so callers never bounds-check; bicubic uses a
 * Catmull-Rom kernel over the 4x4 neighbourhood (separable: four row interpolations, then one column),
 * which reproduces the samples exactly at integer coordinates. Nothing here allocates except init, copy
 * and resample, so a loaded map can be shared read-only by generator threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/heightfield.h"

StResult heightfield_init(Heightfield *hf, int width, int height)
{
    memset(hf, 0, sizeof *hf);
    if (width < 1 || height < 1 || width > HEIGHTFIELD_MAX_SIDE || height > HEIGHTFIELD_MAX_SIDE)
        return st_fail(ST_ERR_ARG, "heightfield size %dx%d outside 1..%d", width, height, HEIGHTFIELD_MAX_SIDE);
    hf->heights = calloc((size_t)width * (size_t)height, sizeof(float));
    if (!hf->heights) return st_fail(ST_ERR_NOMEM, "heightfield %dx%d: out of memory", width, height);
    hf->width = width;
    hf->height = height;
    hf->spacing = 1.0f;
    return ST_OK;
}

void heightfield_free(Heightfield *hf)
{
    if (!hf) return;
    free(hf->heights);
    memset(hf, 0, sizeof *hf);
}

StResult heightfield_copy(const Heightfield *src, Heightfield *dst)
{
    StResult rc = heightfield_init(dst, src->width, src->height);
    if (rc != ST_OK) return rc;
    dst->spacing = src->spacing;
    memcpy(dst->heights, src->heights, (size_t)src->width * (size_t)src->height * sizeof(float));
    return ST_OK;
}

static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

float heightfield_sample_bilinear(const Heightfield *hf, float x, float y)
{
    x = clampf(x, 0.0f, (float)(hf->width - 1));
    y = clampf(y, 0.0f, (float)(hf->height - 1));
    int x0 = (int)x, y0 = (int)y;
    float fx = x - (float)x0, fy = y - (float)y0;
    float h00 = heightfield_at(hf, x0, y0), h10 = heightfield_at(hf, x0 + 1, y0);
    float h01 = heightfield_at(hf, x0, y0 + 1), h11 = heightfield_at(hf, x0 + 1, y0 + 1);
    float top = h00 + (h10 - h00) * fx, bottom = h01 + (h11 - h01) * fx;
    return top + (bottom - top) * fy;
}

/* Catmull-Rom through p1 (t = 0) and p2 (t = 1). */
static float catmull_rom(float p0, float p1, float p2, float p3, float t)
{
    float a = -0.5f * p0 + 1.5f * p1 - 1.5f * p2 + 0.5f * p3;
    float b = p0 - 2.5f * p1 + 2.0f * p2 - 0.5f * p3;
    float c = -0.5f * p0 + 0.5f * p2;
    return ((a * t + b) * t + c) * t + p1;
}

float heightfield_sample_bicubic(const Heightfield *hf, float x, float y)
{
    x = clampf(x, 0.0f, (float)(hf->width - 1));
    y = clampf(y, 0.0f, (float)(hf->height - 1));
    int x0 = (int)x, y0 = (int)y;
    float fx = x - (float)x0, fy = y - (float)y0;
    float rows[4];
    for (int j = 0; j < 4; j++) {
        int yy = y0 - 1 + j;
        rows[j] = catmull_rom(heightfield_at(hf, x0 - 1, yy), heightfield_at(hf, x0, yy), heightfield_at(hf, x0 + 1, yy),
                              heightfield_at(hf, x0 + 2, yy), fx);
    }
    return catmull_rom(rows[0], rows[1], rows[2], rows[3], fy);
}

float heightfield_sample_world(const Heightfield *hf, float world_x, float world_z, float blocks_per_sample)
{
    float inv = blocks_per_sample > 0.0f ? 1.0f / blocks_per_sample : 1.0f;
    return heightfield_sample_bicubic(hf, world_x * inv, world_z * inv);
}

void heightfield_gradient(const Heightfield *hf, int x, int y, float *dhdx, float *dhdy)
{
    int xl = x > 0 ? x - 1 : x, xr = x < hf->width - 1 ? x + 1 : x;
    int yu = y > 0 ? y - 1 : y, yd = y < hf->height - 1 ? y + 1 : y;
    float sp = hf->spacing > 0.0f ? hf->spacing : 1.0f;
    *dhdx = xr > xl ? (heightfield_at(hf, xr, y) - heightfield_at(hf, xl, y)) / ((float)(xr - xl) * sp) : 0.0f;
    *dhdy = yd > yu ? (heightfield_at(hf, x, yd) - heightfield_at(hf, x, yu)) / ((float)(yd - yu) * sp) : 0.0f;
}

float heightfield_slope(const Heightfield *hf, int x, int y)
{
    float gx, gy;
    heightfield_gradient(hf, x, y, &gx, &gy);
    return sqrtf(gx * gx + gy * gy);
}

void heightfield_normal(const Heightfield *hf, int x, int y, float normal[3])
{
    float gx, gy;
    heightfield_gradient(hf, x, y, &gx, &gy);
    float len = sqrtf(gx * gx + 1.0f + gy * gy);
    normal[0] = -gx / len;
    normal[1] = 1.0f / len;
    normal[2] = -gy / len;
}

HeightfieldStats heightfield_stats(const Heightfield *hf)
{
    HeightfieldStats s = {0.0f, 0.0f, 0.0};
    size_t n = (size_t)hf->width * (size_t)hf->height;
    if (!hf->heights || n == 0) return s;
    float lo = hf->heights[0], hi = hf->heights[0];
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        float v = hf->heights[i];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        sum += v;
    }
    s.min = lo;
    s.max = hi;
    s.mean = sum / (double)n;
    return s;
}

StResult heightfield_resample(const Heightfield *src, int width, int height, Heightfield *dst)
{
    StResult rc = heightfield_init(dst, width, height);
    if (rc != ST_OK) return rc;
    float sx = width > 1 ? (float)(src->width - 1) / (float)(width - 1) : 0.0f;
    float sy = height > 1 ? (float)(src->height - 1) / (float)(height - 1) : 0.0f;
    dst->spacing = src->spacing * (width > 1 ? sx : 1.0f);
    if (dst->spacing <= 0.0f) dst->spacing = src->spacing;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            dst->heights[(size_t)y * (size_t)width + (size_t)x] = heightfield_sample_bicubic(src, (float)x * sx, (float)y * sy);
    return ST_OK;
}

void heightfield_remap(Heightfield *hf, float from_min, float from_max, float to_min, float to_max)
{
    size_t n = (size_t)hf->width * (size_t)hf->height;
    double range = (double)from_max - (double)from_min;
    double k = range != 0.0 ? ((double)to_max - (double)to_min) / range : 0.0;
    for (size_t i = 0; i < n; i++)
        hf->heights[i] = (float)((double)to_min + ((double)hf->heights[i] - (double)from_min) * k);
}

void heightfield_flip_vertical(Heightfield *hf)
{
    size_t w = (size_t)hf->width;
    for (int y = 0; y < hf->height / 2; y++) {
        float *a = hf->heights + (size_t)y * w, *b = hf->heights + (size_t)(hf->height - 1 - y) * w;
        for (size_t x = 0; x < w; x++) {
            float t = a[x];
            a[x] = b[x];
            b[x] = t;
        }
    }
}

void heightfield_clamp(Heightfield *hf, float lo, float hi)
{
    size_t n = (size_t)hf->width * (size_t)hf->height;
    for (size_t i = 0; i < n; i++) hf->heights[i] = clampf(hf->heights[i], lo, hi);
}
