/* test_gen_climate.c — gen24 version 4's climate review (seed 000's rules, worldgen.json "climate"): versions
 * 1..3 ignore the climate fields and keep IsPlaceFrozen, ice above 170 and the folded octave sum; version 4
 * takes them, each rule changes what it should (and can fail), and version-4 golden pins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "strata/fileio.h"
#include "strata/generator.h"

static BlockRegistry *blocks;

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* assets/worldgen.json with a "climate" object (NULL: as shipped) written to a temp file; returns its path. */
static const char *worldgen_with(const char *climate, char *path, size_t size)
{
    if (!climate) {
        snprintf(path, size, "assets/worldgen.json");
        return path;
    }
    char *text;
    size_t n;
    CHECK(fileio_read_all("assets/worldgen.json", &text, &n) == ST_OK);
    char *end = strrchr(text, '}');
    CHECK(end != NULL);
    *end = 0;
    char *climate_at = strstr(text, "\"climate\"");
    if (climate_at) { /* replace the shipped object: cut from its key to its closing brace */
        char *close = strchr(climate_at, '}');
        memmove(climate_at, close + 1, strlen(close + 1) + 1);
        /* drop a trailing comma left behind */
        char *q = climate_at;
        while (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t') q++;
        if (*q == 0) {
            char *c = climate_at;
            while (c > text && (c[-1] == ' ' || c[-1] == '\n' || c[-1] == ',' || c[-1] == '\r' || c[-1] == '\t')) c--;
            *c = 0;
        }
    }
    snprintf(path, size, "/tmp/strata_test_climate_%d.json", (int)getpid());
    FILE *f = fopen(path, "wb");
    fprintf(f, "%s,\n  \"climate\": %s\n}\n", text, climate);
    fclose(f);
    free(text);
    return path;
}

static Generator *make(uint64_t seed, int version, const char *climate)
{
    char path[128];
    WorldSettings s;
    world_settings_default(&s);
    s.seed = seed;
    Generator *g = NULL;
    StResult rc = generator_create_version(&s, blocks, worldgen_with(climate, path, sizeof path), version, &g);
    if (rc != ST_OK)
        fprintf(stderr, "%s\n", st_error_message());
    CHECK_EQ_INT(rc, ST_OK);
    if (climate)
        remove(path);
    return g;
}

typedef struct AreaScan {
    uint64_t hash;
    uint64_t hash_passes_1_3; /* the cells after passes 1..3 (version 4's pass 4 also has the scatter rules) */
    long frozen_tops;     /* columns with a snow layer on top */
    long ice_121_170;     /* columns whose ground (under any snow) is ice at y 121..170 */
    long ice_above_170;
} AreaScan;

/* side x side chunks from chunk (cx0, cz0). */
static void scan(const Generator *g, int cx0, int cz0, int side, AreaScan *out)
{
    memset(out, 0, sizeof *out);
    out->hash = out->hash_passes_1_3 = 0xcbf29ce484222325ull;
    GenContext *ctx = gen_context_create();
    TerrainChunk *c = chunk_create(cx0, cz0);
    if (!c) return;
    for (int cz = cz0; cz < cz0 + side; cz++)
        for (int cx = cx0; cx < cx0 + side; cx++) {
            chunk_reset(c, cx, cz);
            generator_generate_chunk(g, c, ctx);
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) {
                    for (int y = 0; y < 256; y++) {
                        int32_t v = chunk_get_cell(c, x, y, z);
                        out->hash = fnv(out->hash, &v, sizeof v);
                    }
                    int y = 254;
                    while (y > 0 && cell_contents(chunk_get_cell(c, x, y, z)) == BLOCK_AIR) y--;
                    bool layer = cell_contents(chunk_get_cell(c, x, y, z)) == BLOCK_SNOW_LAYER;
                    out->frozen_tops += layer;
                    int ground = layer ? y - 1 : y;
                    if (cell_contents(chunk_get_cell(c, x, ground, z)) == BLOCK_ICE) {
                        if (ground > 170) out->ice_above_170++;
                        else if (ground > 120) out->ice_121_170++;
                    }
                }
            out->hash = fnv(out->hash, c->shafts, sizeof c->shafts);
            chunk_reset(c, cx, cz);
            for (int p = 1; p <= 3; p++)
                generator_run_pass(g, p, c, ctx);
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++)
                    for (int y = 0; y < 256; y++) {
                        int32_t v = chunk_get_cell(c, x, y, z);
                        out->hash_passes_1_3 = fnv(out->hash_passes_1_3, &v, sizeof v);
                    }
        }
    chunk_destroy(c);
    gen_context_destroy(ctx);
}

/* Seed 1's cold mountains north-east of the origin (x, z 352..415): frozen tops from ~110 to ~200. */
#define ALPINE_CX 22
#define ALPINE_CZ 22

static void test_versions(void)
{
    Generator *g = make(1, 0, NULL);
    CHECK(g && g->version == 5);   /* the current version keeps version 4's climate rules */
    generator_destroy(g);
    /* an out-of-range climate field is refused, naming it */
    WorldSettings s;
    world_settings_default(&s);
    char path[128];
    CHECK_EQ_INT(generator_create(&s, blocks, worldgen_with("{\"frozen_at_or_below\": 16}", path, sizeof path), &g),
                 ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "climate.frozen_at_or_below");
    CHECK_EQ_INT(generator_create(&s, blocks, worldgen_with("{\"mountain_ridged_octaves\": 1}", path, sizeof path), &g),
                 ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "climate.mountain_ridged_octaves");
    CHECK_EQ_INT(generator_create(&s, blocks, worldgen_with("[]", path, sizeof path), &g), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "climate");
    remove(path);
}

/* Alpine ice from 120 (version 4) against 170 (versions 1..3, or climate.alpine_ice_above 170). */
static void test_alpine_ice(void)
{
    AreaScan v3, v4, v4_170;
    Generator *g = make(1, 3, NULL);
    if (g) scan(g, ALPINE_CX, ALPINE_CZ, 4, &v3);
    generator_destroy(g);
    g = make(1, 4, NULL);
    if (g) scan(g, ALPINE_CX, ALPINE_CZ, 4, &v4);
    generator_destroy(g);
    g = make(1, 4, "{\"alpine_ice_above\": 170}");
    if (g) scan(g, ALPINE_CX, ALPINE_CZ, 4, &v4_170);
    generator_destroy(g);
    fprintf(stderr, "  ice at 121..170: v3 %ld, v4 %ld, v4 with 170: %ld; above 170: %ld %ld; frozen tops %ld %ld\n",
            v3.ice_121_170, v4.ice_121_170, v4_170.ice_121_170, v3.ice_above_170, v4.ice_above_170,
            v3.frozen_tops, v4.frozen_tops);
    CHECK_EQ_INT(v3.ice_121_170, 0);
    CHECK(v4.ice_121_170 > 100);
    CHECK_EQ_INT(v4_170.ice_121_170, 0);
    CHECK(v3.ice_above_170 > 0);
    CHECK(v4.hash != v3.hash);
    /* only the ice differs with 170: the rest of version 4 is version 3 here */
    CHECK(v4_170.hash == v3.hash);
}

/* The seed's "cold at temperature <= 8": version 4 takes it from worldgen.json, version 3 ignores it. */
static void test_frozen_rule(void)
{
    const char *seed_rule = "{\"frozen_at_or_below\": 8, \"alpine_ice_above\": 170}";
    AreaScan v3, v3_seed, v4_seed, v4_170;
    Generator *g = make(2, 3, NULL);
    if (g) scan(g, 0, 0, 4, &v3);
    generator_destroy(g);
    g = make(2, 3, seed_rule);
    if (g) scan(g, 0, 0, 4, &v3_seed);
    generator_destroy(g);
    g = make(2, 4, seed_rule);
    if (g) scan(g, 0, 0, 4, &v4_seed);
    generator_destroy(g);
    g = make(2, 4, "{\"alpine_ice_above\": 170}");
    if (g) scan(g, 0, 0, 4, &v4_170);
    generator_destroy(g);
    fprintf(stderr, "  seed 2 at the origin, frozen tops: v3 %ld, v4 %ld, v4 with <= 8: %ld\n", v3.frozen_tops,
            v4_170.frozen_tops, v4_seed.frozen_tops);
    CHECK(v3_seed.hash == v3.hash);
    /* at the default rule version 4's terrain is version 3's here; its vegetation comes from the scatter rules */
    CHECK(v4_170.hash_passes_1_3 == v3.hash_passes_1_3);
    CHECK(v4_seed.frozen_tops > v3.frozen_tops + 1000);
}

/* Ridged octaves change the mountain factor (and so the height) at version 4 only. */
static void test_mountain_rule(void)
{
    const char *ridged = "{\"mountain_ridged_octaves\": true}";
    Generator *a = make(1, 4, NULL), *b = make(1, 4, ridged), *c = make(1, 3, ridged), *d = make(1, 3, NULL);
    if (!a || !b || !c || !d) {
        generator_destroy(a);
        generator_destroy(b);
        generator_destroy(c);
        generator_destroy(d);
        return;
    }
    int differ = 0, same_v3 = 0, n = 0;
    for (int z = -2000; z <= 2000; z += 250)
        for (int x = -2000; x <= 2000; x += 250) {
            float fa = a->calculate_mountain_range_factor(a, (float)x, (float)z);
            float fb = b->calculate_mountain_range_factor(b, (float)x, (float)z);
            differ += fa != fb;
            same_v3 += c->calculate_mountain_range_factor(c, (float)x, (float)z) ==
                       d->calculate_mountain_range_factor(d, (float)x, (float)z) &&
                       c->calculate_height(c, (float)x, (float)z) == d->calculate_height(d, (float)x, (float)z);
            CHECK(fb >= 0.0f && fb <= 1.0f);
            n++;
        }
    fprintf(stderr, "  ridged octaves change the mountain factor at %d of %d points\n", differ, n);
    CHECK(differ > n / 2);
    CHECK_EQ_INT(same_v3, n);
    generator_destroy(a);
    generator_destroy(b);
    generator_destroy(c);
    generator_destroy(d);
}

/* Version 4's golden pins: the alpine area (where the review changes cells) and seed 2's origin. */
static void test_golden_v4(void)
{
    static const struct { uint64_t seed; int cx, cz; uint64_t hash; } golden[] = {
        {1, ALPINE_CX, ALPINE_CZ, 0xd1612c12476bf4deull},
        {2, 0, 0, 0xc2089034fb1b7154ull}, /* moved by the scatter rules (0xee821967f1f756a2 before them) */
    };
    for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++) {
        Generator *g = make(golden[i].seed, 4, NULL);
        if (!g) continue;
        AreaScan a;
        scan(g, golden[i].cx, golden[i].cz, 4, &a);
        if (a.hash != golden[i].hash)
            fprintf(stderr, "golden v4: seed %llu chunk %d,%d hash 0x%016llxull\n", (unsigned long long)golden[i].seed,
                    golden[i].cx, golden[i].cz, (unsigned long long)a.hash);
        CHECK(a.hash == golden[i].hash);
        generator_destroy(g);
    }
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "blocks: %s\n", st_error_message());
        return 1;
    }
    RUN(test_versions);
    RUN(test_alpine_ice);
    RUN(test_frozen_rule);
    RUN(test_mountain_rule);
    RUN(test_golden_v4);
    block_registry_destroy(blocks);
    return check_report();
}
