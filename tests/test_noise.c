/* test_noise.c — the noise library: pinned values, documented ranges over 1e6 points, determinism,
 * seed independence, continuity, exact Worley against brute force, fractal identities.
 * Also prints ns/sample for simplex 2D/3D (informative only, never asserted). */
#define _POSIX_C_SOURCE 199309L
#include "check.h"
#include "strata/noise.h"
#include "strata/rng.h"

#include <math.h>
#include <time.h>

enum { RANGE_POINTS = 1000000 };

static NoiseTable seed1, seed2;

/* ---- pinned values ---- */

typedef struct Golden {
    int seed, point;
    float simplex2, simplex3, perlin2, perlin3, w2f1, w2f2, w3f1, w3f2, octaved2, octaved3_ridged, fbm2, fbm3,
        ridged2, warp_dx, warp_dy;
} Golden;

static const float GOLDEN_POINTS[4][3] = {
    {0.5f, 0.25f, 0.125f}, {12.34f, -5.67f, 8.9f}, {-103.7f, 42.42f, -7.77f}, {1000.5f, 2000.25f, -3000.125f}};

/* Computed once from this implementation: they pin it (permutation shuffle, octave frames, gradient
 * sets, scales, Worley hash). If one changes on purpose, every world generated from a seed changes with it. */
static const Golden GOLDEN[] = {
    {1, 0, 0.410291106f, 0.030883867f, -0.398704380f, 0.213338077f, 0.494486511f, 0.527174413f, 0.395736516f, 0.414003462f, 0.590499699f, 0.410869747f, 0.164948508f, 0.190235913f, 0.530634105f, -0.345638424f, 0.396634936f},
    {1, 1, -0.647861600f, -0.066188104f, 0.383743972f, -0.388569593f, 0.467997193f, 0.696828902f, 0.440513313f, 0.757595956f, 0.630494058f, 0.682136536f, 0.271415532f, -0.109491058f, 0.387822181f, -1.105825424f, -2.014945507f},
    {1, 2, 0.114199460f, 0.436372817f, -0.085574329f, -0.023499792f, 0.715796649f, 0.982124448f, 0.335639387f, 0.951585352f, 0.272112578f, 0.833911717f, -0.420424104f, 0.065418191f, 0.060347762f, 0.072891235f, 2.867542267f},
    {1, 3, 0.459685326f, -0.099025518f, -0.307098597f, 0.132316947f, 0.547280848f, 0.635055244f, 0.732372880f, 0.758004248f, 0.205914363f, 0.605562389f, -0.561527371f, -0.160973430f, 0.000224447f, 2.679931641f, 1.641601562f},
    {2, 0, -0.757309914f, 0.033640265f, -0.254432291f, -0.074628636f, 0.255412608f, 1.092946172f, 0.567839622f, 0.606108487f, 0.510837376f, 0.876221776f, 0.045909621f, -0.126444817f, 0.582747221f, 2.152823687f, 0.732624352f},
    {2, 1, -0.189062491f, 0.294787288f, 0.136955947f, -0.045333005f, 0.231705815f, 0.883263528f, 0.697978675f, 0.773353755f, 0.437217832f, 0.734133124f, -0.132804066f, 0.134496748f, 0.738580167f, -2.550055504f, 2.080426216f},
    {2, 2, -0.392063797f, -0.446815103f, -0.060695529f, 0.064008795f, 0.511331797f, 0.706923068f, 0.471168041f, 0.566588044f, 0.542888701f, 0.846838892f, 0.085868791f, -0.023522660f, 0.229782686f, 4.994018555f, -1.752384186f},
    {2, 3, -0.950537980f, -0.213344455f, 0.484859347f, 0.238528296f, 0.593646467f, 0.609474957f, 0.396742553f, 0.753729582f, 0.456420720f, 0.757614255f, -0.064642645f, 0.195442036f, 0.067412563f, -1.277954102f, -2.280517578f},
};

static void test_golden(void)
{
    for (size_t i = 0; i < sizeof GOLDEN / sizeof GOLDEN[0]; i++) {
        const Golden *g = &GOLDEN[i];
        const NoiseTable *t = g->seed == 1 ? &seed1 : &seed2;
        float x = GOLDEN_POINTS[g->point][0], y = GOLDEN_POINTS[g->point][1], z = GOLDEN_POINTS[g->point][2];
        const double eps = 1e-6;
        CHECK_NEAR(noise_simplex2(t, x, y), g->simplex2, eps);
        CHECK_NEAR(noise_simplex3(t, x, y, z), g->simplex3, eps);
        CHECK_NEAR(noise_perlin2(t, x, y), g->perlin2, eps);
        CHECK_NEAR(noise_perlin3(t, x, y, z), g->perlin3, eps);
        WorleyResult w2 = noise_worley2(t, x, y), w3 = noise_worley3(t, x, y, z);
        CHECK_NEAR(w2.f1, g->w2f1, eps);
        CHECK_NEAR(w2.f2, g->w2f2, eps);
        CHECK_NEAR(w3.f1, g->w3f1, eps);
        CHECK_NEAR(w3.f2, g->w3f2, eps);
        CHECK_NEAR(noise_octaved2(t, x, y, 0.1f, 4, 2.0f, 0.5f, false), g->octaved2, eps);
        CHECK_NEAR(noise_octaved3(t, x, y, z, 0.1f, 4, 2.0f, 0.5f, true), g->octaved3_ridged, eps);
        CHECK_NEAR(noise_fbm2(t, x * 0.1f, y * 0.1f, 5, 2.0f, 0.5f), g->fbm2, eps);
        CHECK_NEAR(noise_fbm3(t, x * 0.1f, y * 0.1f, z * 0.1f, 5, 2.0f, 0.5f), g->fbm3, eps);
        CHECK_NEAR(noise_ridged2(t, x * 0.1f, y * 0.1f, 5, 2.0f, 2.0f, 1.0f), g->ridged2, eps);
        /* The warped position is a float near the input: at 2000 one ulp is 1.2e-4, so pin to that. */
        float wx = x, wy = y;
        noise_warp2(t, &wx, &wy, 0.05f, 8.0f, 3);
        CHECK_NEAR(wx - x, g->warp_dx, 2.5e-4);
        CHECK_NEAR(wy - y, g->warp_dy, 2.5e-4);
    }
}

/* ---- the permutation table ---- */

static void test_table(void)
{
    int seen[256] = {0};
    for (int i = 0; i < 256; i++) seen[seed1.perm[i]]++;
    int ok = 1;
    for (int i = 0; i < 256; i++) ok &= seen[i] == 1;
    CHECK(ok); /* a permutation */
    ok = 1;
    for (int i = 0; i < 256; i++) ok &= seed1.perm[i + 256] == seed1.perm[i];
    for (int i = 0; i < 512; i++) ok &= seed1.perm12[i] == seed1.perm[i] % 12;
    CHECK(ok);
    CHECK(seed1.seed == 1 && seed2.seed == 2);

    /* Same seed, same table; other seeds, mostly different positions. */
    NoiseTable again;
    noise_table_init(&again, 1);
    CHECK(memcmp(&again, &seed1, sizeof again) == 0);
    int same = 0;
    for (int i = 0; i < 256; i++) same += seed1.perm[i] == seed2.perm[i];
    CHECK(same < 10);
    /* The octave frames are rotations (orthonormal, determinant +1) and differ per octave and seed. */
    int rot_ok = 1;
    for (int i = 0; i < NOISE_OCTAVE_FRAMES; i++) {
        const float *c = seed1.rot2[i], *m = seed1.rot3[i];
        rot_ok &= fabsf(c[0] * c[0] + c[1] * c[1] - 1.0f) < 1e-5f;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                float dot = m[3 * a] * m[3 * b] + m[3 * a + 1] * m[3 * b + 1] + m[3 * a + 2] * m[3 * b + 2];
                rot_ok &= fabsf(dot - (a == b ? 1.0f : 0.0f)) < 1e-5f;
            }
        float det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                    m[2] * (m[3] * m[7] - m[4] * m[6]);
        rot_ok &= fabsf(det - 1.0f) < 1e-5f;
        for (int k = 0; k < 3; k++) rot_ok &= seed1.shift[i][k] >= 0.0f && seed1.shift[i][k] < 16.0f;
        if (i > 0) rot_ok &= seed1.rot2[i][1] != seed1.rot2[i - 1][1] && seed1.rot3[i][0] != seed1.rot3[i - 1][0];
        rot_ok &= seed1.rot2[i][1] != seed2.rot2[i][1];
    }
    CHECK(rot_ok);
    /* Pinned: the first entries of the shuffle for seed 1 and 2. */
    CHECK_EQ_INT(seed1.perm[0], 42);
    CHECK_EQ_INT(seed1.perm[1], 86);
    CHECK_EQ_INT(seed2.perm[0], 221);
    CHECK_EQ_INT(seed2.perm[1], 145);
}

/* ---- ranges over many random points ---- */

typedef struct Range { double lo, hi, sum; } Range;

static void range_add(Range *r, double v)
{
    if (v < r->lo) r->lo = v;
    if (v > r->hi) r->hi = v;
    r->sum += v;
}

static Range range_new(void)
{
    Range r = {INFINITY, -INFINITY, 0};
    return r;
}

static void test_ranges(void)
{
    Rng rng;
    rng_init(&rng, 2024);
    Range s2 = range_new(), s3 = range_new(), p2 = range_new(), p3 = range_new(), o2 = range_new(),
          o3 = range_new(), o2r = range_new(), f2 = range_new(), f3 = range_new(), rd = range_new(),
          w2 = range_new(), w3 = range_new();
    int worley_order_ok = 1, warp_ok = 1;
    for (int i = 0; i < RANGE_POINTS; i++) {
        float x = rng_float_range(&rng, -3000.0f, 3000.0f);
        float y = rng_float_range(&rng, -3000.0f, 3000.0f);
        float z = rng_float_range(&rng, -300.0f, 300.0f);
        range_add(&s2, noise_simplex2(&seed1, x, y));
        range_add(&s3, noise_simplex3(&seed1, x, y, z));
        range_add(&p2, noise_perlin2(&seed1, x, y));
        range_add(&p3, noise_perlin3(&seed1, x, y, z));
        range_add(&o2, noise_octaved2(&seed1, x, y, 0.05f, 5, 2.0f, 0.5f, false));
        range_add(&o2r, noise_octaved2(&seed1, x, y, 0.05f, 3, 1.9f, 0.7f, true));
        range_add(&o3, noise_octaved3(&seed1, x, y, z, 0.05f, 3, 2.0f, 0.5f, false));
        range_add(&f2, noise_fbm2(&seed1, x, y, 6, 2.0f, 0.5f));
        range_add(&f3, noise_fbm3(&seed1, x, y, z, 4, 2.0f, 0.5f));
        range_add(&rd, noise_ridged2(&seed1, x, y, 5, 2.0f, 2.0f, 1.0f));
        WorleyResult a = noise_worley2(&seed1, x, y), b = noise_worley3(&seed1, x, y, z);
        range_add(&w2, a.f1);
        range_add(&w3, b.f1);
        worley_order_ok &= a.f1 >= 0.0f && a.f2 >= a.f1 && b.f1 >= 0.0f && b.f2 >= b.f1;
        worley_order_ok &= a.f1 <= 1.4143f && a.f2 <= 1.4143f && b.f1 <= 1.7321f && b.f2 <= 1.7321f;
        if ((i & 7) == 0) {
            float wx = x, wy = y;
            noise_warp2(&seed1, &wx, &wy, 0.01f, 20.0f, 3);
            warp_ok &= fabsf(wx - x) <= 20.01f && fabsf(wy - y) <= 20.01f;
        }
    }
    /* Documented ranges... */
    CHECK(s2.lo >= -1.0 && s2.hi <= 1.0);
    CHECK(s3.lo >= -1.0 && s3.hi <= 1.0);
    CHECK(p2.lo >= -1.0 && p2.hi <= 1.0);
    CHECK(p3.lo >= -1.0 && p3.hi <= 1.0);
    CHECK(o2.lo >= 0.0 && o2.hi <= 1.0);
    CHECK(o2r.lo >= 0.0 && o2r.hi <= 1.0);
    CHECK(o3.lo >= 0.0 && o3.hi <= 1.0);
    CHECK(f2.lo >= -1.0 && f2.hi <= 1.0);
    CHECK(f3.lo >= -1.0 && f3.hi <= 1.0);
    CHECK(rd.lo >= 0.0 && rd.hi <= 1.0);
    CHECK(w2.lo >= 0.0 && w3.lo >= 0.0);
    CHECK(worley_order_ok);
    CHECK(warp_ok);
    /* ...and the scales are not timid: the extremes come close to the bounds. */
    CHECK(s2.lo < -0.97 && s2.hi > 0.97);
    CHECK(s3.lo < -0.95 && s3.hi > 0.95);
    CHECK(p2.lo < -0.9 && p2.hi > 0.9);
    CHECK(p3.lo < -0.9 && p3.hi > 0.9);
    /* Centred on zero / one half. */
    CHECK_NEAR(s2.sum / RANGE_POINTS, 0.0, 0.01);
    CHECK_NEAR(s3.sum / RANGE_POINTS, 0.0, 0.01);
    CHECK_NEAR(p2.sum / RANGE_POINTS, 0.0, 0.01);
    CHECK_NEAR(p3.sum / RANGE_POINTS, 0.0, 0.01);
    CHECK_NEAR(o2.sum / RANGE_POINTS, 0.5, 0.01);
    CHECK_NEAR(f2.sum / RANGE_POINTS, 0.0, 0.01);
    fprintf(stderr, "   simplex2 [%.4f, %.4f] simplex3 [%.4f, %.4f] perlin2 [%.4f, %.4f] perlin3 [%.4f, %.4f]\n",
            s2.lo, s2.hi, s3.lo, s3.hi, p2.lo, p2.hi, p3.lo, p3.hi);
    fprintf(stderr, "   ridged [%.4f, %.4f] worley2 f1 max %.4f worley3 f1 max %.4f\n", rd.lo, rd.hi, w2.hi, w3.hi);
}

/* ---- determinism and seed independence ---- */

static double correlation(const double *a, const double *b, int n)
{
    double sa = 0, sb = 0, sab = 0, saa = 0, sbb = 0;
    for (int i = 0; i < n; i++) {
        sa += a[i];
        sb += b[i];
        sab += a[i] * b[i];
        saa += a[i] * a[i];
        sbb += b[i] * b[i];
    }
    double cov = sab / n - (sa / n) * (sb / n);
    double va = saa / n - (sa / n) * (sa / n), vb = sbb / n - (sb / n) * (sb / n);
    return cov / sqrt(va * vb);
}

enum { CORR_POINTS = 100000, CORR_FUNCS = 10 };

static void sample_all(const NoiseTable *t, float x, float y, float z, double out[CORR_FUNCS])
{
    out[0] = noise_simplex2(t, x, y);
    out[1] = noise_simplex3(t, x, y, z);
    out[2] = noise_perlin2(t, x, y);
    out[3] = noise_perlin3(t, x, y, z);
    out[4] = noise_worley2(t, x, y).f1;
    out[5] = noise_worley3(t, x, y, z).f2;
    out[6] = noise_octaved2(t, x, y, 0.3f, 4, 2.0f, 0.5f, false);
    out[7] = noise_ridged2(t, x, y, 4, 2.0f, 2.0f, 1.0f);
    out[8] = noise_octaved3(t, x, y, z, 0.3f, 3, 2.0f, 0.5f, true);
    out[9] = noise_fbm3(t, x, y, z, 3, 2.0f, 0.5f);
}

static void test_determinism_and_independence(void)
{
    static double a[CORR_FUNCS][CORR_POINTS], b[CORR_FUNCS][CORR_POINTS];
    NoiseTable again;
    noise_table_init(&again, 1);
    Rng rng;
    rng_init(&rng, 77);
    int identical = 1;
    for (int i = 0; i < CORR_POINTS; i++) {
        float x = rng_float_range(&rng, -1000.0f, 1000.0f);
        float y = rng_float_range(&rng, -1000.0f, 1000.0f);
        float z = rng_float_range(&rng, -1000.0f, 1000.0f);
        double va[CORR_FUNCS], vb[CORR_FUNCS], vc[CORR_FUNCS];
        sample_all(&seed1, x, y, z, va);
        sample_all(&seed2, x, y, z, vb);
        sample_all(&again, x, y, z, vc);
        for (int f = 0; f < CORR_FUNCS; f++) {
            a[f][i] = va[f];
            b[f][i] = vb[f];
            identical &= va[f] == vc[f];
        }
    }
    CHECK(identical);
    for (int f = 0; f < CORR_FUNCS; f++) {
        double c = correlation(a[f], b[f], CORR_POINTS);
        if (!(fabs(c) < 0.1)) fprintf(stderr, "   function %d: seed 1 vs 2 correlation %.4f\n", f, c);
        CHECK(fabs(c) < 0.1);
    }
    /* Neighbouring seeds are as unrelated as distant ones. */
    NoiseTable s3;
    noise_table_init(&s3, 3);
    for (int i = 0; i < CORR_POINTS; i++) {
        float x = (float)(i % 316) * 0.37f, y = (float)(i / 316) * 0.41f;
        a[0][i] = noise_simplex2(&seed2, x, y);
        b[0][i] = noise_simplex2(&s3, x, y);
    }
    CHECK(fabs(correlation(a[0], b[0], CORR_POINTS)) < 0.1);
}

/* ---- continuity: no jumps at simplex or cell boundaries ---- */

static void test_continuity(void)
{
    Rng rng;
    rng_init(&rng, 5);
    const float e = 1e-4f;
    float jump[6] = {0};
    for (int i = 0; i < 300000; i++) {
        float x = rng_float_range(&rng, -20.0f, 20.0f);
        float y = rng_float_range(&rng, -20.0f, 20.0f);
        float z = rng_float_range(&rng, -20.0f, 20.0f);
        float d[6] = {
            fabsf(noise_simplex2(&seed1, x + e, y) - noise_simplex2(&seed1, x, y)),
            fabsf(noise_simplex3(&seed1, x, y, z + e) - noise_simplex3(&seed1, x, y, z)),
            fabsf(noise_perlin2(&seed1, x, y + e) - noise_perlin2(&seed1, x, y)),
            fabsf(noise_perlin3(&seed1, x + e, y, z) - noise_perlin3(&seed1, x, y, z)),
            fabsf(noise_worley2(&seed1, x + e, y).f2 - noise_worley2(&seed1, x, y).f2),
            fabsf(noise_worley3(&seed1, x, y + e, z).f2 - noise_worley3(&seed1, x, y, z).f2),
        };
        for (int k = 0; k < 6; k++)
            if (d[k] > jump[k]) jump[k] = d[k];
    }
    /* Gradients are below ~8 per unit, so a step of 1e-4 moves at most ~8e-4; a cut-off kernel
     * (r^2 = 0.6) or a Worley search that misses a point jumps by 5e-3 or more. Worley F1/F2 are
     * 1-Lipschitz. */
    CHECK(jump[0] < 1.5e-3f);
    CHECK(jump[1] < 1.5e-3f);
    CHECK(jump[2] < 1.5e-3f);
    CHECK(jump[3] < 1.5e-3f);
    CHECK(jump[4] < 1.2e-4f);
    CHECK(jump[5] < 1.2e-4f);
}

/* ---- Worley against a brute-force search ---- */

/* A second copy of the feature-point placement (src/core/noise_worley.c): murmur3's finaliser over
 * the cell coordinates and a seed derived with rng_mix64. Kept in sync by this very test. */
static uint32_t ref_hash(uint32_t seed, int x, int y, int z, int dims)
{
    uint32_t h = seed ^ ((uint32_t)x * 0x8DA6B343u) ^ ((uint32_t)y * 0xD8163841u);
    if (dims == 3) h ^= (uint32_t)z * 0xCB1AB31Fu;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

static void ref_keep(double d, double *f1, double *f2)
{
    if (d < *f1) { *f2 = *f1; *f1 = d; }
    else if (d < *f2) *f2 = d;
}

/* Exhaustive 7x7 (7x7x7) search in double precision: no pruning, no early outs. */
static WorleyResult ref_worley(const NoiseTable *t, float x, float y, float z, int dims)
{
    uint32_t seed = (uint32_t)rng_mix64(t->seed ^ 0x5B1E7A3D2C4F6E81ull);
    int cx = (int)floor(x), cy = (int)floor(y), cz = (int)floor(z);
    double f1 = INFINITY, f2 = INFINITY;
    int zr = dims == 3 ? 3 : 0;
    for (int dz = -zr; dz <= zr; dz++)
        for (int dy = -3; dy <= 3; dy++)
            for (int dx = -3; dx <= 3; dx++) {
                uint32_t h = ref_hash(seed, cx + dx, cy + dy, cz + dz, dims);
                double px, py, pz = 0;
                if (dims == 2) {
                    px = cx + dx + ((h & 0xFFFFu) + 0.5) / 65536.0;
                    py = cy + dy + ((h >> 16) + 0.5) / 65536.0;
                } else {
                    px = cx + dx + ((h & 1023u) + 0.5) / 1024.0;
                    py = cy + dy + (((h >> 10) & 1023u) + 0.5) / 1024.0;
                    pz = cz + dz + (((h >> 20) & 1023u) + 0.5) / 1024.0;
                }
                double ex = px - x, ey = py - y, ez = dims == 3 ? pz - z : 0;
                ref_keep(ex * ex + ey * ey + ez * ez, &f1, &f2);
            }
    WorleyResult r = {(float)sqrt(f1), (float)sqrt(f2)};
    return r;
}

static void test_worley_exact(void)
{
    Rng rng;
    rng_init(&rng, 11);
    float worst2 = 0, worst3 = 0;
    for (int i = 0; i < 100000; i++) {
        float x = rng_float_range(&rng, -50.0f, 50.0f), y = rng_float_range(&rng, -50.0f, 50.0f);
        float z = rng_float_range(&rng, -50.0f, 50.0f);
        const NoiseTable *t = (i & 1) ? &seed1 : &seed2;
        WorleyResult a = noise_worley2(t, x, y), ra = ref_worley(t, x, y, 0, 2);
        WorleyResult b = noise_worley3(t, x, y, z), rb = ref_worley(t, x, y, z, 3);
        worst2 = fmaxf(worst2, fmaxf(fabsf(a.f1 - ra.f1), fabsf(a.f2 - ra.f2)));
        worst3 = fmaxf(worst3, fmaxf(fabsf(b.f1 - rb.f1), fabsf(b.f2 - rb.f2)));
    }
    /* Float rounding only (a missed feature point would be off by ~0.1). */
    CHECK(worst2 < 2e-5f);
    CHECK(worst3 < 2e-5f);
}

/* ---- fractal identities ---- */

static void test_fractal_identities(void)
{
    /* The octaves are shifted by seed offsets, so the identities relate the fractal functions to each
     * other (same shifts per octave) rather than to raw simplex at (x, y). */
    Rng rng;
    rng_init(&rng, 8);
    int ok_oct = 1, ok_ridge = 1, ok_fbm = 1, ok_oct3 = 1;
    for (int i = 0; i < 10000; i++) {
        float x = rng_float_range(&rng, -100.0f, 100.0f), y = rng_float_range(&rng, -100.0f, 100.0f);
        float z = rng_float_range(&rng, -100.0f, 100.0f);
        float f = 0.5f;
        float fb = noise_fbm2(&seed1, x * f, y * f, 1, 2.0f, 0.5f); /* one shifted simplex octave */
        ok_oct &= fabsf(noise_octaved2(&seed1, x, y, f, 1, 2.0f, 0.5f, false) - 0.5f * (fb + 1.0f)) < 1e-6f;
        ok_ridge &= fabsf(noise_octaved2(&seed1, x, y, f, 1, 2.0f, 0.5f, true) - (1.0f - fabsf(fb))) < 1e-6f;
        float fb3 = noise_fbm3(&seed1, x * 0.25f, y * 0.25f, z * 0.25f, 1, 2.0f, 0.5f);
        ok_oct3 &= fabsf(noise_octaved3(&seed1, x, y, z, 0.25f, 1, 2.0f, 0.5f, false) - 0.5f * (fb3 + 1.0f)) < 1e-6f;
        /* Two octaves: (v0 + a v1) / (1 + a) with v = (n + 1) / 2 is (fbm + 1) / 2 for the same steps. */
        float fb2 = noise_fbm2(&seed1, x * f, y * f, 2, 3.0f, 0.25f);
        ok_oct &= fabsf(noise_octaved2(&seed1, x, y, f, 2, 3.0f, 0.25f, false) - 0.5f * (fb2 + 1.0f)) < 1e-5f;
        /* fbm with gain 0 is its first octave alone. */
        ok_fbm &= fabsf(noise_fbm2(&seed1, x, y, 4, 2.0f, 0.0f) - noise_fbm2(&seed1, x, y, 1, 2.0f, 0.5f)) < 1e-6f;
        /* The first octave is simplex in frame 0 (rotation, then shift). */
        float n0 = noise_fbm2(&seed1, x, y, 1, 2.0f, 0.5f);
        const float *r = seed1.rot2[0], *sh = seed1.shift[0];
        float s0 = noise_simplex2(&seed1, r[0] * x - r[1] * y + sh[0], r[1] * x + r[0] * y + sh[1]);
        ok_fbm &= fabsf(n0 - s0) < 1e-6f;
    }
    CHECK(ok_oct);
    CHECK(ok_ridge);
    CHECK(ok_fbm);
    CHECK(ok_oct3);
    /* Degenerate parameters stay in range instead of dividing by zero. */
    float v = noise_octaved2(&seed1, 1.5f, 2.5f, 0.1f, 0, 2.0f, 0.5f, false);
    CHECK(v >= 0.0f && v <= 1.0f);
    v = noise_octaved2(&seed1, 1.5f, 2.5f, 0.1f, 4, 2.0f, -1.0f, false);
    CHECK(v >= 0.0f && v <= 1.0f);
    v = noise_fbm2(&seed1, 1.5f, 2.5f, -3, 2.0f, 0.5f);
    CHECK(v >= -1.0f && v <= 1.0f);
    v = noise_ridged2(&seed1, 1.5f, 2.5f, 4, 2.0f, 2.0f, 0.3f);
    CHECK(v >= 0.0f && v <= 1.0f);
    /* Integer lattice points: simplex and Perlin are exactly 0 at the origin. */
    CHECK(noise_simplex2(&seed1, 0.0f, 0.0f) == 0.0f);
    CHECK(noise_simplex3(&seed1, 0.0f, 0.0f, 0.0f) == 0.0f);
    CHECK(noise_perlin2(&seed1, 3.0f, -7.0f) == 0.0f);
    CHECK(noise_perlin3(&seed1, -2.0f, 5.0f, 9.0f) == 0.0f);
}

/* ---- informative timing (not asserted) ---- */

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void report_speed(void)
{
    volatile float sink = 0;
    float acc = 0;
    double t0 = seconds();
    for (int j = 0; j < 1000; j++)
        for (int i = 0; i < 1000; i++) acc += noise_simplex2(&seed1, (float)i * 0.0173f, (float)j * 0.0191f);
    double t1 = seconds();
    for (int k = 0; k < 100; k++)
        for (int j = 0; j < 100; j++)
            for (int i = 0; i < 100; i++)
                acc += noise_simplex3(&seed1, (float)i * 0.0173f, (float)j * 0.0191f, (float)k * 0.0131f);
    double t2 = seconds();
    sink = acc;
    (void)sink;
    fprintf(stderr, "   simplex2 %.1f ns/sample, simplex3 %.1f ns/sample (informative)\n", (t1 - t0) * 1e3,
            (t2 - t1) * 1e3);
}

int main(void)
{
    noise_table_init(&seed1, 1);
    noise_table_init(&seed2, 2);
    RUN(test_golden);
    RUN(test_table);
    RUN(test_ranges);
    RUN(test_determinism_and_independence);
    RUN(test_continuity);
    RUN(test_worley_exact);
    RUN(test_fractal_identities);
    RUN(report_speed);
    return check_report();
}
