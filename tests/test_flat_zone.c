/* test_flat_zone.c — flat zones: heights against seed 004's formula at core, band and outside points,
 * circles, overlap resolution independent of order, and the tile index against brute force over thousands
 * of random zones (with unregistering). */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "strata/flat_zone.h"
#include "strata/rng.h"

/* The seed's formula written out independently. */
static float ref_height(const FlatZone *z, float x, float zz, float proc)
{
    float bx = (fabsf(x - z->center_x) - z->width / 2) / z->blend_radius;
    float bz = (fabsf(zz - z->center_z) - z->depth / 2) / z->blend_radius;
    float s = fmaxf(bx, bz);
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    float t = s * s * (3 - 2 * s);
    return z->height + (proc - z->height) * t;
}

static void test_formula(void)
{
    FlatZoneSet *set = flat_zone_set_create(32);
    FlatZone z = {.id = 7, .center_x = 100, .center_z = -50, .width = 20, .depth = 10, .height = 70,
                  .blend_radius = 8};
    CHECK(flat_zone_set_register(set, &z) == ST_OK);
    const float proc = 90.0f;
    /* core */
    CHECK_NEAR(flat_zone_set_height(set, 100, -50, proc), 70.0, 1e-6);
    CHECK_NEAR(flat_zone_set_height(set, 109.9f, -45.5f, proc), 70.0, 1e-6);
    /* band: a few points, also the corner where max(blendX, blendZ) picks z */
    float pts[][2] = {{112, -50}, {114, -50}, {117.5f, -48}, {105, -42}, {113, -43}, {92, -58}, {88, -50}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
        CHECK_NEAR(flat_zone_set_height(set, pts[i][0], pts[i][1], proc), ref_height(&z, pts[i][0], pts[i][1], proc),
                   1e-4);
    /* half way through the band: smoothstep(0.5) = 0.5 */
    CHECK_NEAR(flat_zone_set_height(set, 114, -50, proc), 80.0, 1e-4);
    /* outside */
    CHECK_NEAR(flat_zone_set_height(set, 118.5f, -50, proc), proc, 1e-6);
    CHECK_NEAR(flat_zone_set_height(set, 100, -30, proc), proc, 1e-6);
    CHECK(flat_zone_set_at(set, 300, 300, NULL) == NULL);
    /* circle: radial distance */
    FlatZone c = {.id = 8, .center_x = 0, .center_z = 0, .width = 10, .height = 20, .blend_radius = 4,
                  .shape = FLAT_ZONE_CIRCLE};
    CHECK(flat_zone_set_register(set, &c) == ST_OK);
    CHECK_NEAR(flat_zone_set_height(set, 3, 3, 40), 20.0, 1e-6);          /* r 4.24 < 5 */
    float r = 7.0f, s = (r - 5.0f) / 4.0f, t = s * s * (3 - 2 * s);
    CHECK_NEAR(flat_zone_set_height(set, r / sqrtf(2.0f), r / sqrtf(2.0f), 40), 20 + 20 * t, 1e-3);
    CHECK_NEAR(flat_zone_set_height(set, 9.5f, 0, 40), 40.0, 1e-6);
    /* registry errors */
    CHECK(flat_zone_set_register(set, &c) == ST_ERR_EXISTS);
    FlatZone bad = z;
    bad.id = 0;
    CHECK(flat_zone_set_register(set, &bad) == ST_ERR_ARG);
    bad.id = 99;
    bad.width = -1;
    CHECK(flat_zone_set_register(set, &bad) == ST_ERR_ARG);
    CHECK(flat_zone_set_unregister(set, 8));
    CHECK(!flat_zone_set_unregister(set, 8));
    CHECK_NEAR(flat_zone_set_height(set, 0, 0, 40), 40.0, 1e-6);
    CHECK_EQ_INT(flat_zone_set_count(set), 1);
    flat_zone_set_destroy(set);
}

/* overlap: same answer whatever the registration order */
static void test_overlap_order(void)
{
    FlatZone a = {.id = 1, .center_x = 0, .center_z = 0, .width = 10, .depth = 10, .height = 10, .blend_radius = 6};
    FlatZone b = {.id = 2, .center_x = 8, .center_z = 0, .width = 10, .depth = 10, .height = 30, .blend_radius = 6};
    FlatZoneSet *s1 = flat_zone_set_create(16), *s2 = flat_zone_set_create(7);
    flat_zone_set_register(s1, &a);
    flat_zone_set_register(s1, &b);
    flat_zone_set_register(s2, &b);
    flat_zone_set_register(s2, &a);
    for (float x = -12; x <= 20; x += 0.5f) {
        const FlatZone *z1 = flat_zone_set_at(s1, x, 1, NULL), *z2 = flat_zone_set_at(s2, x, 1, NULL);
        CHECK((z1 ? z1->id : 0) == (z2 ? z2->id : 0));
        CHECK(flat_zone_set_height(s1, x, 1, 50) == flat_zone_set_height(s2, x, 1, 50));
    }
    /* both cores hold x = 4: equal t, the lower id wins */
    CHECK_EQ_INT(flat_zone_set_at(s1, 4, 0, NULL)->id, 1);
    flat_zone_set_destroy(s1);
    flat_zone_set_destroy(s2);
}

static const FlatZone *brute(const FlatZone *zs, const bool *alive, int n, float x, float z, float *t_out)
{
    const FlatZone *best = NULL;
    float bt = 1.0f;
    for (int i = 0; i < n; i++) {
        if (!alive[i])
            continue;
        float t = flat_zone_blend(&zs[i], x, z);
        if (t < 1.0f && (!best || flat_zone_wins(&zs[i], t, best, bt))) {
            best = &zs[i];
            bt = t;
        }
    }
    *t_out = bt;
    return best;
}

static void test_index_vs_brute(void)
{
    enum { N = 3000 };
    static FlatZone zs[N];
    static bool alive[N];
    Rng rng;
    rng_init(&rng, 1234);
    FlatZoneSet *set = flat_zone_set_create(48);
    for (int i = 0; i < N; i++) {
        FlatZone *z = &zs[i];
        z->id = (uint32_t)(i + 1);
        z->center_x = rng_float_range(&rng, -3000, 3000);
        z->center_z = rng_float_range(&rng, -3000, 3000);
        z->width = rng_float_range(&rng, 2, 60);
        z->depth = rng_float_range(&rng, 2, 60);
        z->height = rng_float_range(&rng, 40, 120);
        z->blend_radius = rng_float_range(&rng, 0, 20);
        z->shape = rng_bool(&rng, 0.3f) ? FLAT_ZONE_CIRCLE : FLAT_ZONE_RECT;
        CHECK(flat_zone_set_register(set, z) == ST_OK);
        alive[i] = true;
    }
    for (int i = 0; i < N; i += 3) { /* unregister a third */
        CHECK(flat_zone_set_unregister(set, zs[i].id));
        alive[i] = false;
    }
    int mismatches = 0, hits = 0;
    for (int k = 0; k < 200000; k++) {
        float x, z;
        if (k & 1) { /* near a zone, so most probes hit something */
            const FlatZone *near = &zs[rng_int_range(&rng, 0, N - 1)];
            x = near->center_x + rng_float_range(&rng, -50, 50);
            z = near->center_z + rng_float_range(&rng, -50, 50);
        } else {
            x = rng_float_range(&rng, -3200, 3200);
            z = rng_float_range(&rng, -3200, 3200);
        }
        float t1, t2;
        const FlatZone *a = flat_zone_set_at(set, x, z, &t1), *b = brute(zs, alive, N, x, z, &t2);
        if ((a ? a->id : 0) != (b ? b->id : 0) || t1 != t2)
            mismatches++;
        hits += a != NULL;
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK(hits > 20000);
    CHECK_EQ_INT(flat_zone_set_count(set), N - (N + 2) / 3);
    flat_zone_set_destroy(set);
}

int main(void)
{
    RUN(test_formula);
    RUN(test_overlap_order);
    RUN(test_index_vs_brute);
    return check_report();
}
