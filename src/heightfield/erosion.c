/* erosion.c — thermal and droplet hydraulic erosion.
 *
 * Thermal: two buffers. Each pass starts dst as a copy of src, then for every cell reads only src: the
 * drop d_k to each of the 8 neighbours, the excess d_k - tan(TalusAngle) x dist_k, and the transfer
 * TransportRate x excess to each neighbour past the talus; the sum is scaled down to at most TransportRate
 * x the largest excess and half the largest drop (Olsen's cap, else the 8-neighbour sum overshoots).
 * dst loses exactly what its neighbours gain, so mass is conserved up to float rounding. Interior cells take a bounds-check-free path.
 * Hydraulic (Beyer 2015, seed 001's ten steps, per droplet):
 *   1 spawn at a random point with water W and sediment 0;  2 height and gradient by bilinear
 *   interpolation of the four surrounding samples;  3 direction = old x Inertia - gradient x (1 - Inertia),
 *   normalised;  4 one step;  5 deltaH = new height - old height;  6 uphill (deltaH > 0): deposit
 *   min(deltaH, S) at the old position;  7 downhill: capacity C = max(-deltaH, MinSlope) x Speed x W x
 *   SedimentCapacity;  8 S > C: deposit (S - C) x DepositionRate (bilinear to the 4 samples), else erode
 *   min((C - S) x ErosionRate, -deltaH) over the radius brush;  9 speed from the height change and
 *   gravity; 10 evaporate W *= (1 - EvaporationRate); until dry, off the map or MaxLifetime steps.
 * The brush (weights 1 - dist/radius, normalised) is one offset table shared by all interior cells;
 * cells near the border clip it and renormalise on the fly, so no per-cell table is allocated. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/erosion.h"
#include "strata/rng.h"

void erosion_thermal_defaults(ThermalErosionParams *p)
{
    memset(p, 0, sizeof *p);
    p->talus_angle = 35.0f;
    p->transport_rate = 0.5f;
    p->iterations = 50;
}

void erosion_hydraulic_defaults(HydraulicErosionParams *p)
{
    memset(p, 0, sizeof *p);
    p->num_droplets = 200000;
    p->inertia = 0.05f;
    p->sediment_capacity = 4.0f;
    p->min_slope = 0.01f;
    p->erosion_rate = 0.3f;
    p->deposition_rate = 0.3f;
    p->evaporation_rate = 0.01f;
    p->max_lifetime = 30;
    p->erosion_radius = 3;
    p->gravity = 4.0f;
    p->initial_water = 1.0f;
    p->initial_speed = 1.0f;
    p->seed = 1;
}

/* ---- thermal ---- */

/* max without fmaxf's NaN rules, so it compiles to one max instruction and vectorises. */
static inline float maxf(float a, float b) { return a > b ? a : b; }
static inline float minf(float a, float b) { return a < b ? a : b; }

static const int THERMAL_DX[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
static const int THERMAL_DY[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

/* Sweep 1 for one cell with bounds checks (border cells): the height it gives away this pass, its scale
 * factor (1, or less when the sum would exceed the cap) and, in *biggest, the same outflow. */
static void thermal_out_checked(const float *src, int w, int h, int x, int y, const float talus_d[8], float rate,
                                float *out, float *scale, float *biggest)
{
    float hc = src[(size_t)y * (size_t)w + (size_t)x];
    float total = 0.0f, max_drop = 0.0f, max_excess = 0.0f;
    for (int k = 0; k < 8; k++) {
        int nx = x + THERMAL_DX[k], ny = y + THERMAL_DY[k];
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        float d = hc - src[(size_t)ny * (size_t)w + (size_t)nx];
        float e = maxf(d - talus_d[k], 0.0f);
        total += e;
        max_excess = maxf(max_excess, e);
        max_drop = maxf(max_drop, e > 0.0f ? d : 0.0f);
    }
    total *= rate;
    float cap = minf(0.5f * max_drop, rate * max_excess);
    float s = total > cap ? cap / total : 1.0f;
    *scale = s;
    *out = total * s;
    *biggest = *out;
}

/* Sweep 2 for one cell with bounds checks: what flows in from its neighbours. */
static float thermal_in_checked(const float *src, const float *scale, int w, int h, int x, int y, const float talus_d[8], float rate)
{
    float hc = src[(size_t)y * (size_t)w + (size_t)x], in = 0.0f;
    for (int k = 0; k < 8; k++) {
        int nx = x + THERMAL_DX[k], ny = y + THERMAL_DY[k];
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        size_t n = (size_t)ny * (size_t)w + (size_t)nx;
        in += rate * maxf(src[n] - hc - talus_d[k], 0.0f) * scale[n];   /* talus_d is symmetric in k */
    }
    return in;
}

/* One pass, gather form (two sweeps, branch-free inner loops the compiler vectorises): sweep 1 gives
 * each cell its outflow and scale; sweep 2 sets dst = src - out + inflow from the 8 neighbours. */
static float thermal_pass(const float *src, float *dst, float *out, float *scale, float *big, int w, int h,
                          const float talus_d[8], float rate, double *moved)
{
    float pass_max = 0.0f;
    const float to = talus_d[1], td = talus_d[0];
    for (int y = 0; y < h; y++) {
        float *o = out + (size_t)y * (size_t)w, *sc = scale + (size_t)y * (size_t)w;
        float row_moved = 0.0f, row_max = 0.0f;
        if (y == 0 || y == h - 1 || w < 3) {
            for (int x = 0; x < w; x++) {
                float b;
                thermal_out_checked(src, w, h, x, y, talus_d, rate, &o[x], &sc[x], &b);
                row_moved += o[x];
                row_max = maxf(row_max, b);
            }
        } else {
            const float *up = src + (size_t)(y - 1) * (size_t)w, *mid = src + (size_t)y * (size_t)w, *dn = src + (size_t)(y + 1) * (size_t)w;
            float b;
            thermal_out_checked(src, w, h, 0, y, talus_d, rate, &o[0], &sc[0], &b);
            row_max = maxf(row_max, b);
            row_moved += o[0];
            for (int x = 1; x < w - 1; x++) {
                float hc = mid[x];
                float d0 = hc - up[x - 1], d1 = hc - up[x], d2 = hc - up[x + 1], d3 = hc - mid[x - 1];
                float d4 = hc - mid[x + 1], d5 = hc - dn[x - 1], d6 = hc - dn[x], d7 = hc - dn[x + 1];
                float e0 = maxf(d0 - td, 0.0f), e1 = maxf(d1 - to, 0.0f), e2 = maxf(d2 - td, 0.0f), e3 = maxf(d3 - to, 0.0f);
                float e4 = maxf(d4 - to, 0.0f), e5 = maxf(d5 - td, 0.0f), e6 = maxf(d6 - to, 0.0f), e7 = maxf(d7 - td, 0.0f);
                float total = rate * (((e0 + e1) + (e2 + e3)) + ((e4 + e5) + (e6 + e7)));
                float max_excess = maxf(maxf(maxf(e0, e1), maxf(e2, e3)), maxf(maxf(e4, e5), maxf(e6, e7)));
                /* a neighbour with excess > 0 has drop > talus >= 0, so the largest such drop is at least
                 * max over k of (e_k + talus_k); use the exact drops of the neighbours with excess */
                float m0 = d0 * (float)(e0 > 0.0f), m1 = d1 * (float)(e1 > 0.0f), m2 = d2 * (float)(e2 > 0.0f), m3 = d3 * (float)(e3 > 0.0f);
                float m4 = d4 * (float)(e4 > 0.0f), m5 = d5 * (float)(e5 > 0.0f), m6 = d6 * (float)(e6 > 0.0f), m7 = d7 * (float)(e7 > 0.0f);
                float max_drop = maxf(maxf(maxf(m0, m1), maxf(m2, m3)), maxf(maxf(m4, m5), maxf(m6, m7)));
                float half = 0.5f * max_drop;
                /* branch-free; total 0 gives s 0, unused. Cap: at most rate x the largest excess in all
                 * (Olsen's stable form; equals the seed's amount when one neighbour is past the talus) */
                float s = minf(half, rate * max_excess) / maxf(total, 1e-30f);
                s = s < 1.0f ? s : 1.0f;
                sc[x] = s;
                o[x] = total * s;
                big[x] = o[x];
            }
            for (int x = 1; x < w - 1; x++) {   /* reductions apart: float sums do not vectorise */
                row_moved += o[x];
                row_max = maxf(row_max, big[x]);
            }
            thermal_out_checked(src, w, h, w - 1, y, talus_d, rate, &o[w - 1], &sc[w - 1], &b);
            row_max = maxf(row_max, b);
            row_moved += o[w - 1];
        }
        *moved += row_moved;
        pass_max = maxf(pass_max, row_max);
    }
    for (int y = 0; y < h; y++) {
        size_t r = (size_t)y * (size_t)w;
        const float *o = out + r;
        float *d = dst + r;
        if (y == 0 || y == h - 1 || w < 3) {
            for (int x = 0; x < w; x++) d[x] = src[r + (size_t)x] - o[x] + thermal_in_checked(src, scale, w, h, x, y, talus_d, rate);
            continue;
        }
        const float *up = src + r - (size_t)w, *mid = src + r, *dn = src + r + (size_t)w;
        const float *su = scale + r - (size_t)w, *sm = scale + r, *sd = scale + r + (size_t)w;
        d[0] = mid[0] - o[0] + thermal_in_checked(src, scale, w, h, 0, y, talus_d, rate);
        for (int x = 1; x < w - 1; x++) {
            float hc = mid[x];
            float in = maxf(up[x - 1] - hc - td, 0.0f) * su[x - 1] + maxf(up[x] - hc - to, 0.0f) * su[x] +
                       maxf(up[x + 1] - hc - td, 0.0f) * su[x + 1] + maxf(mid[x - 1] - hc - to, 0.0f) * sm[x - 1] +
                       maxf(mid[x + 1] - hc - to, 0.0f) * sm[x + 1] + maxf(dn[x - 1] - hc - td, 0.0f) * sd[x - 1] +
                       maxf(dn[x] - hc - to, 0.0f) * sd[x] + maxf(dn[x + 1] - hc - td, 0.0f) * sd[x + 1];
            d[x] = hc - o[x] + rate * in;
        }
        d[w - 1] = mid[w - 1] - o[w - 1] + thermal_in_checked(src, scale, w, h, w - 1, y, talus_d, rate);
    }
    return pass_max;
}

StResult erosion_thermal(Heightfield *hf, const ThermalErosionParams *p, ThermalErosionStats *stats)
{
    if (!(p->talus_angle >= 0.0f && p->talus_angle < 90.0f))
        return st_fail(ST_ERR_ARG, "talus-angle must be in [0, 90) degrees, got %g", (double)p->talus_angle);
    if (!(p->transport_rate > 0.0f && p->transport_rate <= 1.0f))
        return st_fail(ST_ERR_ARG, "transport-rate must be in (0, 1], got %g", (double)p->transport_rate);
    if (p->iterations < 0 || p->iterations > 100000)
        return st_fail(ST_ERR_ARG, "iterations must be in 0..100000, got %d", p->iterations);
    int w = hf->width, h = hf->height;
    size_t n = (size_t)w * (size_t)h;
    float *other = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float)), *scale = malloc(n * sizeof(float));
    float *big = malloc((size_t)w * sizeof(float));
    if (!other || !out || !scale || !big) {
        free(big);
        free(other);
        free(out);
        free(scale);
        return st_fail(ST_ERR_NOMEM, "thermal erosion %dx%d: out of memory", w, h);
    }
    float tan_talus = tanf(p->talus_angle * (float)M_PI / 180.0f);
    float sp = hf->spacing > 0.0f ? hf->spacing : 1.0f;
    float talus_d[8];
    for (int k = 0; k < 8; k++)
        talus_d[k] = tan_talus * sp * ((THERMAL_DX[k] && THERMAL_DY[k]) ? (float)M_SQRT2 : 1.0f);
    float *src = hf->heights, *dst = other;
    double moved = 0.0;
    float last_max = 0.0f;
    for (int it = 0; it < p->iterations; it++) {
        last_max = thermal_pass(src, dst, out, scale, big, w, h, talus_d, p->transport_rate, &moved);
        float *t = src;
        src = dst;
        dst = t;
        if (p->progress && (it & 3) == 3) p->progress(p->progress_user, (double)(it + 1) / p->iterations);
    }
    if (src != hf->heights) {
        memcpy(hf->heights, src, n * sizeof(float));
        free(src);
    } else {
        free(other);
    }
    free(out);
    free(scale);
    free(big);
    if (p->progress) p->progress(p->progress_user, 1.0);
    if (stats) {
        stats->moved = moved;
        stats->last_pass_max_transfer = last_max;
    }
    return ST_OK;
}

/* ---- hydraulic ---- */

typedef struct Brush {
    int count;
    int dx[17 * 17], dy[17 * 17];
    float weight[17 * 17];
    ptrdiff_t offset[17 * 17];  /* dy * width + dx */
} Brush;

static void brush_build(Brush *b, int radius, int width)
{
    b->count = 0;
    float sum = 0.0f;
    for (int dy = -radius; dy <= radius; dy++)
        for (int dx = -radius; dx <= radius; dx++) {
            float d = sqrtf((float)(dx * dx + dy * dy));
            if (d >= (float)radius) continue;
            float wgt = 1.0f - d / (float)radius;
            b->dx[b->count] = dx;
            b->dy[b->count] = dy;
            b->weight[b->count] = wgt;
            b->offset[b->count] = (ptrdiff_t)dy * width + dx;
            sum += wgt;
            b->count++;
        }
    for (int i = 0; i < b->count; i++) b->weight[i] /= sum;
}

/* Height and gradient at (x, y) by bilinear interpolation of the 4 samples around it (x < w-1, y < h-1). */
static inline float height_gradient(const float *map, int w, float x, float y, float *gx, float *gy)
{
    int cx = (int)x, cy = (int)y;
    float u = x - (float)cx, v = y - (float)cy;
    size_t i = (size_t)cy * (size_t)w + (size_t)cx;
    float nw = map[i], ne = map[i + 1], sw = map[i + (size_t)w], se = map[i + (size_t)w + 1];
    *gx = (ne - nw) * (1.0f - v) + (se - sw) * v;
    *gy = (sw - nw) * (1.0f - u) + (se - ne) * u;
    return nw * (1.0f - u) * (1.0f - v) + ne * u * (1.0f - v) + sw * (1.0f - u) * v + se * u * v;
}

static StResult hydraulic_check(const HydraulicErosionParams *p)
{
#define RANGE(v, lo, hi, name) \
    if (!((v) >= (lo) && (v) <= (hi))) return st_fail(ST_ERR_ARG, name " must be in [%g, %g], got %g", (double)(lo), (double)(hi), (double)(v))
    RANGE(p->num_droplets, 0, 100000000, "num-droplets");
    RANGE(p->inertia, 0.0f, 1.0f, "inertia");
    RANGE(p->sediment_capacity, 0.0f, 1000.0f, "sediment-capacity");
    RANGE(p->min_slope, 0.0f, 100.0f, "min-slope");
    RANGE(p->erosion_rate, 0.0f, 1.0f, "erosion-rate");
    RANGE(p->deposition_rate, 0.0f, 1.0f, "deposition-rate");
    RANGE(p->evaporation_rate, 0.0f, 1.0f, "evaporation-rate");
    RANGE(p->max_lifetime, 1, 100000, "max-lifetime");
    RANGE(p->erosion_radius, 1, 8, "erosion-radius");
    RANGE(p->gravity, 0.0f, 1000.0f, "gravity");
    RANGE(p->initial_water, 0.0f, 1000.0f, "initial-water");
    RANGE(p->initial_speed, 0.0f, 1000.0f, "initial-speed");
#undef RANGE
    return ST_OK;
}

/* Removes `amount` from the brush around cell (cx, cy), clipped to the map; returns what was removed. */
static float erode_brush(float *map, int w, int h, const Brush *b, int radius, int cx, int cy, float amount)
{
    size_t centre = (size_t)cy * (size_t)w + (size_t)cx;
    if (cx >= radius && cy >= radius && cx < w - radius && cy < h - radius) {
        for (int k = 0; k < b->count; k++) map[(ptrdiff_t)centre + b->offset[k]] -= amount * b->weight[k];
        return amount;
    }
    float sum = 0.0f;
    for (int k = 0; k < b->count; k++) {
        int x = cx + b->dx[k], y = cy + b->dy[k];
        if (x >= 0 && y >= 0 && x < w && y < h) sum += b->weight[k];
    }
    if (sum <= 0.0f) return 0.0f;
    float removed = 0.0f;
    for (int k = 0; k < b->count; k++) {
        int x = cx + b->dx[k], y = cy + b->dy[k];
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        float a = amount * b->weight[k] / sum;
        map[(size_t)y * (size_t)w + (size_t)x] -= a;
        removed += a;
    }
    return removed;
}

StResult erosion_hydraulic(Heightfield *hf, const HydraulicErosionParams *p, HydraulicErosionStats *stats)
{
    StResult rc = hydraulic_check(p);
    if (rc != ST_OK) return rc;
    HydraulicErosionStats st = {0};
    int w = hf->width, h = hf->height;
    if (w < 3 || h < 3) {
        if (stats) *stats = st;
        return ST_OK;
    }
    Brush *brush = malloc(sizeof *brush);
    if (!brush) return st_fail(ST_ERR_NOMEM, "hydraulic erosion: out of memory");
    brush_build(brush, p->erosion_radius, w);
    float *map = hf->heights;
    Rng rng;
    rng_init(&rng, rng_derive(p->seed, "droplets"));
    const float max_x = (float)(w - 1), max_y = (float)(h - 1);
    int report_every = p->num_droplets / 100 > 1000 ? p->num_droplets / 100 : 1000;
    for (int d = 0; d < p->num_droplets; d++) {
        /* 1: spawn */
        float x = rng_float(&rng) * max_x, y = rng_float(&rng) * max_y;
        float dir_x = 0.0f, dir_y = 0.0f, speed = p->initial_speed, water = p->initial_water, sediment = 0.0f;
        for (int life = 0; life < p->max_lifetime; life++) {
            int cx = (int)x, cy = (int)y;
            float u = x - (float)cx, v = y - (float)cy;
            /* 2: height and gradient */
            float gx, gy;
            float old_h = height_gradient(map, w, x, y, &gx, &gy);
            /* 3: direction with inertia */
            dir_x = dir_x * p->inertia - gx * (1.0f - p->inertia);
            dir_y = dir_y * p->inertia - gy * (1.0f - p->inertia);
            float len = sqrtf(dir_x * dir_x + dir_y * dir_y);
            if (len <= 1e-12f) break;   /* flat and still: the droplet stops */
            dir_x /= len;
            dir_y /= len;
            /* 4: one step */
            x += dir_x;
            y += dir_y;
            st.steps++;
            if (!(x >= 0.0f && x < max_x && y >= 0.0f && y < max_y)) break;  /* left the map */
            /* 5: height change */
            float ngx, ngy;
            float delta_h = height_gradient(map, w, x, y, &ngx, &ngy) - old_h;
            size_t i = (size_t)cy * (size_t)w + (size_t)cx;
            float deposit = 0.0f;
            if (delta_h > 0.0f) {
                /* 6: uphill, fill the pit behind */
                deposit = delta_h < sediment ? delta_h : sediment;
            } else {
                /* 7: capacity */
                float slope = -delta_h > p->min_slope ? -delta_h : p->min_slope;
                float capacity = slope * speed * water * p->sediment_capacity;
                if (sediment > capacity) {
                    /* 8a: deposit */
                    deposit = (sediment - capacity) * p->deposition_rate;
                } else {
                    /* 8b: erode, never deeper than the drop */
                    float amount = (capacity - sediment) * p->erosion_rate;
                    if (amount > -delta_h) amount = -delta_h;
                    float removed = erode_brush(map, w, h, brush, p->erosion_radius, cx, cy, amount);
                    sediment += removed;
                    st.eroded += removed;
                }
            }
            if (deposit > 0.0f) {
                map[i] += deposit * (1.0f - u) * (1.0f - v);
                map[i + 1] += deposit * u * (1.0f - v);
                map[i + (size_t)w] += deposit * (1.0f - u) * v;
                map[i + (size_t)w + 1] += deposit * u * v;
                sediment -= deposit;
                st.deposited += deposit;
            }
            /* 9: speed; 10: evaporate */
            float s2 = speed * speed - delta_h * p->gravity;
            speed = s2 > 0.0f ? sqrtf(s2) : 0.0f;
            water *= 1.0f - p->evaporation_rate;
            if (water < 1e-4f) break;
        }
        st.carried_away += sediment;
        if (p->progress && (d + 1) % report_every == 0) p->progress(p->progress_user, (double)(d + 1) / p->num_droplets);
    }
    free(brush);
    if (p->progress) p->progress(p->progress_user, 1.0);
    if (stats) *stats = st;
    return ST_OK;
}
