/* test_heightfield.c — the heightfield module: sampling, recipes (presets match the shipped JSON),
 * round trips in every format, thermal and hydraulic erosion properties, splat weights, and a hostile
 * .sparkterrain corpus (never a crash, always an error). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "strata/erosion.h"
#include "strata/heightfield.h"
#include "strata/heightfield_io.h"
#include "strata/heightfield_recipe.h"
#include "strata/splat.h"

static Heightfield make_map(int w, int h, uint64_t seed)
{
    HeightRecipe r;
    Heightfield hf;
    CHECK(height_recipe_preset("default", NULL, &r) == ST_OK);
    CHECK(height_recipe_generate(&r, seed, w, h, &hf) == ST_OK);
    return hf;
}

static void test_sampling(void)
{
    Heightfield hf;
    CHECK(heightfield_init(&hf, 4, 3) == ST_OK);
    for (int i = 0; i < 12; i++) hf.heights[i] = (float)(i % 4) * 2.0f + (float)(i / 4);
    CHECK_NEAR(heightfield_sample_bilinear(&hf, 1.5f, 1.0f), 4.0f, 1e-6);
    CHECK_NEAR(heightfield_sample_bicubic(&hf, 2.0f, 1.0f), heightfield_at(&hf, 2, 1), 1e-6);
    CHECK_NEAR(heightfield_sample_bicubic(&hf, 1.5f, 1.0f), 4.0f, 1e-5);   /* a plane stays a plane */
    CHECK_NEAR(heightfield_sample_world(&hf, 3.0f, 2.0f, 2.0f), heightfield_sample_bicubic(&hf, 1.5f, 1.0f), 1e-6);
    CHECK_NEAR(heightfield_slope(&hf, 1, 1), sqrtf(5.0f), 1e-5);
    float n[3];
    heightfield_normal(&hf, 1, 1, n);
    CHECK(n[1] > 0.0f);
    HeightfieldStats s = heightfield_stats(&hf);
    CHECK_NEAR(s.min, 0.0, 0);
    CHECK_NEAR(s.max, 8.0, 0);
    Heightfield big;
    CHECK(heightfield_resample(&hf, 7, 5, &big) == ST_OK);
    CHECK_NEAR(big.heights[0], 0.0f, 1e-6);
    CHECK_NEAR(big.heights[7 * 5 - 1], 8.0f, 1e-5);
    heightfield_free(&big);
    CHECK(heightfield_init(&big, 0, 5) == ST_ERR_ARG);
    heightfield_free(&hf);
}

static void test_recipes(void)
{
    const char *names[] = {"default", "stations", "layered"};
    for (int i = 0; i < 3; i++) {
        HeightRecipe built, shipped;
        CHECK(height_recipe_preset(names[i], NULL, &built) == ST_OK);
        CHECK(height_recipe_preset(names[i], STRATA_ASSET_DIR, &shipped) == ST_OK);
        Heightfield a, b;
        CHECK(height_recipe_generate(&built, 5, 64, 48, &a) == ST_OK);
        CHECK(height_recipe_generate(&shipped, 5, 64, 48, &b) == ST_OK);
        CHECK(memcmp(a.heights, b.heights, 64 * 48 * sizeof(float)) == 0);
        HeightfieldStats s = heightfield_stats(&a);
        CHECK(s.min >= 0.0f && s.max <= 255.0f && s.max > s.min);
        heightfield_free(&a);
        heightfield_free(&b);
    }
    HeightRecipe r;
    CHECK(height_recipe_preset("layered", NULL, &r) == ST_OK);
    Heightfield hf;
    CHECK(height_recipe_generate(&r, 9, 128, 128, &hf) == ST_OK);
    HeightfieldStats s = heightfield_stats(&hf);
    CHECK(s.min >= 1.0f && s.max <= 255.0f);
    CHECK(s.min >= 64.0f - 1.3f * 32.0f + 32.0f - 1.0f);   /* (base + detail + 1) x 32 + 64 >= 54.4 */
    heightfield_free(&hf);
    CHECK(height_recipe_preset("nope", NULL, &r) == ST_ERR_NOT_FOUND);
    CHECK(height_recipe_parse("bad.json", "{\"layers\": [{\"kind\": \"cubes\", \"frequency\": 1, \"amplitude\": 1}]}", &r) == ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "layers[0].kind");
    CHECK(height_recipe_parse("bad.json", "{\"layers\": [", &r) == ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "bad.json");
}

static void test_round_trips(void)
{
    char dir[] = "/tmp/strata-test-hf-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    Heightfield hf = make_map(97, 61, 3), back;
    HeightfieldStats s = heightfield_stats(&hf);
    char path[256];
    /* EXR and .sparkterrain: bit exact */
    const char *exact[] = {"m.exr", "m.sparkterrain"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, exact[i]);
        CHECK(heightfield_export(path, &hf, NULL) == ST_OK);
        CHECK(heightfield_import(path, NULL, &back) == ST_OK);
        CHECK(back.width == 97 && back.height == 61);
        CHECK(back.heights && memcmp(back.heights, hf.heights, 97 * 61 * sizeof(float)) == 0);
        heightfield_free(&back);
    }
    /* r16 and PNG16 normalised: within one quantisation step after remapping back */
    const char *quant[] = {"m.r16", "m.png"};
    float step = (s.max - s.min) / 65535.0f;
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, quant[i]);
        HeightExportOptions eo = {.bits = 16, .normalize = true};
        CHECK(heightfield_export(path, &hf, &eo) == ST_OK);
        HeightImportOptions io = {.width = 97, .height = 61, .remap = true, .range_min = s.min, .range_max = s.max};
        CHECK(heightfield_import(path, &io, &back) == ST_OK);
        float worst = 0.0f;
        for (int k = 0; k < 97 * 61; k++) worst = fmaxf(worst, fabsf(back.heights[k] - hf.heights[k]));
        CHECK(worst <= step);
        heightfield_free(&back);
    }
    /* 8-bit raw and PNG without normalize: integers come back as they were */
    Heightfield ints;
    CHECK(heightfield_init(&ints, 16, 9) == ST_OK);
    for (int k = 0; k < 16 * 9; k++) ints.heights[k] = (float)((k * 37) % 256);
    const char *eight[] = {"i.raw", "i.png"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, eight[i]);
        HeightExportOptions eo = {.bits = 8};
        CHECK(heightfield_export(path, &ints, &eo) == ST_OK);
        HeightImportOptions io = {.width = 16, .height = 9, .flip = true};
        CHECK(heightfield_import(path, &io, &back) == ST_OK);
        heightfield_flip_vertical(&back);
        CHECK(memcmp(back.heights, ints.heights, 16 * 9 * sizeof(float)) == 0);
        heightfield_free(&back);
    }
    /* raw size mismatch and missing dimensions: clear errors */
    snprintf(path, sizeof path, "%s/i.raw", dir);
    HeightImportOptions wrong = {.width = 17, .height = 9};
    CHECK(heightfield_import(path, &wrong, &back) == ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "i.raw: file is 144 bytes");
    CHECK(heightfield_import(path, NULL, &back) == ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "--map-size");
    heightfield_free(&ints);
    heightfield_free(&hf);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

static double total(const Heightfield *hf)
{
    double t = 0.0;
    for (size_t i = 0; i < (size_t)hf->width * (size_t)hf->height; i++) t += hf->heights[i];
    return t;
}

static void test_thermal(void)
{
    Heightfield hf = make_map(129, 97, 4);
    heightfield_remap(&hf, 0.0f, 1.0f, 0.0f, 0.25f);   /* gentler relief: converges in a few hundred passes */
    double before = total(&hf);
    ThermalErosionParams p;
    erosion_thermal_defaults(&p);
    p.iterations = 300;
    ThermalErosionStats st;
    CHECK(erosion_thermal(&hf, &p, &st) == ST_OK);
    CHECK(st.moved > 0.0);
    CHECK(fabs(total(&hf) - before) <= 1e-4 * fabs(before));
    /* no slope above the talus angle by more than the last pass's transfer */
    float t = tanf(p.talus_angle * (float)M_PI / 180.0f), worst = 0.0f;
    for (int y = 0; y < hf.height; y++)
        for (int x = 0; x < hf.width; x++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    if ((!dx && !dy) || nx < 0 || ny < 0 || nx >= hf.width || ny >= hf.height) continue;
                    float dist = (dx && dy) ? (float)M_SQRT2 : 1.0f;
                    float excess = heightfield_at(&hf, x, y) - heightfield_at(&hf, nx, ny) - t * dist;
                    worst = fmaxf(worst, excess);
                }
    CHECK(worst <= st.last_pass_max_transfer / p.transport_rate + 1e-3f);
    p.talus_angle = 95.0f;
    CHECK(erosion_thermal(&hf, &p, NULL) == ST_ERR_ARG);
    heightfield_free(&hf);
}

static void test_hydraulic(void)
{
    Heightfield a = make_map(129, 129, 5), b, c;
    CHECK(heightfield_copy(&a, &b) == ST_OK);
    CHECK(heightfield_copy(&a, &c) == ST_OK);
    double before = total(&a);
    HydraulicErosionParams p;
    erosion_hydraulic_defaults(&p);
    p.num_droplets = 20000;
    p.seed = 42;
    HydraulicErosionStats sa, sb, sc;
    CHECK(erosion_hydraulic(&a, &p, &sa) == ST_OK);
    CHECK(erosion_hydraulic(&b, &p, &sb) == ST_OK);
    CHECK(memcmp(a.heights, b.heights, 129 * 129 * sizeof(float)) == 0);
    p.seed = 43;
    CHECK(erosion_hydraulic(&c, &p, &sc) == ST_OK);
    CHECK(memcmp(a.heights, c.heights, 129 * 129 * sizeof(float)) != 0);
    int nan = 0;
    for (int i = 0; i < 129 * 129; i++) nan += !isfinite(a.heights[i]);
    CHECK(nan == 0);
    CHECK(sa.eroded > 0.0 && sa.steps > 0);
    /* net change = deposited - eroded = -(what the droplets carried away), and that is bounded */
    double net = total(&a) - before;
    CHECK(fabs(net + sa.carried_away) <= 1e-3 * sa.eroded + 1e-2);
    CHECK(sa.carried_away >= -1e-3 && sa.carried_away <= sa.eroded + 1e-3);
    p.inertia = 2.0f;
    CHECK(erosion_hydraulic(&a, &p, NULL) == ST_ERR_ARG);
    heightfield_free(&a);
    heightfield_free(&b);
    heightfield_free(&c);
}

static void test_splat(void)
{
    SplatRules r;
    splat_rules_default(&r);
    float w[SPLAT_MAX_LAYERS];
    splat_weights(&r, 0.05f, 0.0f, w);
    CHECK(w[splat_rules_layer(&r, "sand")] > 0.9f);
    splat_weights(&r, 0.5f, 3.0f, w);
    CHECK(w[splat_rules_layer(&r, "rock")] > 0.9f);
    splat_weights(&r, 0.95f, 0.0f, w);
    CHECK(w[splat_rules_layer(&r, "snow")] > 0.9f);
    splat_weights(&r, 0.5f, 0.0f, w);
    CHECK(w[splat_rules_layer(&r, "grass")] > 0.9f);
    Heightfield hf = make_map(33, 17, 6);
    uint8_t *maps;
    int count;
    CHECK(splat_compute(&hf, &r, &maps, &count) == ST_OK);
    CHECK(count == 2);
    int bad = 0;
    for (size_t i = 0; i < 33 * 17; i++) {
        int sum = 0;
        for (int m = 0; m < count; m++)
            for (int ch = 0; ch < 4; ch++) sum += maps[((size_t)m * 33 * 17 + i) * 4 + (size_t)ch];
        bad += sum != 255;
    }
    CHECK(bad == 0);
    free(maps);
    SplatRules parsed;
    CHECK(splat_rules_load(STRATA_ASSET_DIR "/recipes/splat_default.json", &parsed) == ST_OK);
    CHECK(parsed.layer_count == 5 && parsed.rule_count == r.rule_count);
    CHECK(splat_rules_parse("s.json", "{\"layers\": [\"a\"], \"rules\": [{\"layer\": \"b\"}]}", &parsed) == ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "rules[0].layer");
    heightfield_free(&hf);
}

/* ---- hostile .sparkterrain ---- */

static void put32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }

static void test_sparkterrain_hostile(void)
{
    SparkTerrain t = {0}, back;
    CHECK(heightfield_init(&t.heights, 8, 5) == ST_OK);
    for (int i = 0; i < 40; i++) t.heights.heights[i] = (float)i * 0.25f;
    t.height_scale = 2.0f;
    t.generate_collider = true;
    t.splatmap_count = 1;
    t.splatmaps = calloc(40 * 4, 1);
    t.layer_count = 2;
    t.layers[0] = (SparkTerrainLayer){strdup("grass"), strdup("textures/grass.png"), 4.0f};
    t.layers[1] = (SparkTerrainLayer){strdup("rock"), strdup(""), 1.0f};
    uint8_t *blob;
    size_t size;
    CHECK(spark_terrain_encode(&t, &blob, &size) == ST_OK);
    CHECK(spark_terrain_decode("ok", blob, size, &back) == ST_OK);
    CHECK(back.layer_count == 2 && !strcmp(back.layers[0].texture, "textures/grass.png") && back.generate_collider);
    CHECK(memcmp(back.heights.heights, t.heights.heights, 40 * 4) == 0);
    spark_terrain_free(&back);
    /* every truncation fails cleanly */
    int failures = 0;
    for (size_t n = 0; n < size; n++) failures += spark_terrain_decode("cut", blob, n, &back) != ST_OK;
    CHECK(failures == (int)size);
    CHECK(back.heights.heights == NULL);
    uint8_t *evil = malloc(size + 16);
    /* version 1 and unknown versions */
    memcpy(evil, blob, size);
    put32(evil + 4, 1);
    CHECK(spark_terrain_decode("v1", evil, size, &back) == ST_ERR_VERSION);
    CHECK_STR_CONTAINS(st_error_message(), "version 1");
    put32(evil + 4, 77);
    CHECK(spark_terrain_decode("v77", evil, size, &back) == ST_ERR_VERSION);
    /* huge dimensions: refused before any allocation */
    memcpy(evil, blob, size);
    put32(evil + 8, 16384);
    put32(evil + 12, 16384);
    CHECK(spark_terrain_decode("huge", evil, size, &back) == ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "truncated");
    put32(evil + 8, 0xffffffffu);
    CHECK(spark_terrain_decode("huge", evil, size, &back) == ST_ERR_FORMAT);
    /* too many splatmaps / layers */
    size_t maps_at = 4 + 4 * 3 + 8 + 1 + 40 * 4;
    memcpy(evil, blob, size);
    put32(evil + maps_at, 1000000);
    CHECK(spark_terrain_decode("maps", evil, size, &back) == ST_ERR_FORMAT);
    size_t layers_at = maps_at + 4 + 40 * 4;
    memcpy(evil, blob, size);
    put32(evil + layers_at, 17);
    CHECK(spark_terrain_decode("layers", evil, size, &back) == ST_ERR_FORMAT);
    /* long string: over 4096 refused; a length past the end refused */
    memcpy(evil, blob, size);
    put32(evil + layers_at + 4, 5000);
    CHECK(spark_terrain_decode("long", evil, size, &back) == ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "4096");
    put32(evil + layers_at + 4, 4000);
    CHECK(spark_terrain_decode("long", evil, size, &back) == ST_ERR_FORMAT);
    /* bad magic, trailing bytes, NaN spacing */
    memcpy(evil, blob, size);
    evil[0] = 'X';
    CHECK(spark_terrain_decode("magic", evil, size, &back) == ST_ERR_FORMAT);
    memcpy(evil, blob, size);
    evil[size] = 0;
    CHECK(spark_terrain_decode("trailing", evil, size + 1, &back) == ST_ERR_FORMAT);
    put32(evil + 16, 0x7fc00000u);
    CHECK(spark_terrain_decode("nan", evil, size, &back) == ST_ERR_FORMAT);
    /* random corruption never crashes */
    srand(7);
    for (int i = 0; i < 2000; i++) {
        memcpy(evil, blob, size);
        for (int k = 0; k < 4; k++) evil[(size_t)rand() % size] = (uint8_t)rand();
        if (spark_terrain_decode("fuzz", evil, size, &back) == ST_OK) spark_terrain_free(&back);
    }
    CHECK(spark_terrain_decode("null", NULL, 0, &back) == ST_ERR_FORMAT);
    free(evil);
    free(blob);
    spark_terrain_free(&t);
}

int main(void)
{
    RUN(test_sampling);
    RUN(test_recipes);
    RUN(test_round_trips);
    RUN(test_thermal);
    RUN(test_hydraulic);
    RUN(test_splat);
    RUN(test_sparkterrain_hostile);
    return check_report();
}
