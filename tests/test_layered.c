/* test_layered.c — seed 002's layered generator (--generator layered): the height formula at sample points,
 * golden chunk hashes for two seeds, order independence, the YAML config's FILE:LINE errors, the generator
 * setting in world.json and on command lines, generator_create_for_world accepting a layered world, and the
 * surface block far terrain takes its colours from. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "test_util.h"
#include "strata/block.h"
#include "strata/generator.h"
#include "strata/noise.h"
#include "strata/rng.h"
#include "strata/world_file.h"

static BlockRegistry *blocks;

static uint64_t chunk_hash(TerrainChunk *c)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *p = (const unsigned char *)chunk_cell_view_const(c).cells;
    for (size_t i = 0; i < CHUNK_CELLS * sizeof(int32_t); i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    p = (const unsigned char *)c->shafts;
    for (size_t i = 0; i < sizeof c->shafts; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static Generator *make(uint64_t seed)
{
    WorldSettings s;
    world_settings_default(&s);
    s.seed = seed;
    strcpy(s.generator, "layered");
    Generator *g = NULL;
    if (generator_create(&s, blocks, "assets/worldgen.json", &g) != ST_OK)
        fprintf(stderr, "generator_create: %s\n", st_error_message());
    return g;
}

static uint64_t gen_chunk(const Generator *g, GenContext *ctx, int cx, int cz)
{
    TerrainChunk *c = chunk_create(cx, cz);
    for (int p = 1; p <= 4; p++) generator_run_pass(g, p, c, ctx);
    uint64_t h = chunk_hash(c);
    chunk_destroy(c);
    return h;
}

/* Generator.surface_block names what the generated chunks show on top (far terrain takes its colours): in
 * nearly every column without a tree or plant on it, over 64 chunks of seed 2, water, sand, grass or snow; a
 * forest's grass may be named by its canopy. */
static void test_surface_block(void)
{
    Generator *g = make(2);
    CHECK(g != NULL && g->surface_block != NULL);
    if (!g || !g->surface_block) return;
    GenContext *ctx = gen_context_create();
    TerrainChunk *c = chunk_create(0, 0);
    int compared = 0, agreed = 0, kinds[BLOCK_MAX] = {0};
    for (int i = 0; i < 64; i++) {
        chunk_reset(c, i % 8 * 5 - 20, i / 8 * 5 - 20);
        for (int p = 1; p <= 4; p++) generator_run_pass(g, p, c, ctx);
        for (int z = 0; z < 16; z += 3)
            for (int x = 0; x < 16; x += 3) {
                int y = 254;
                while (y > 0 && chunk_get_contents(c, x, y, z) == BLOCK_AIR) y--;
                int top = chunk_get_contents(c, x, y, z);
                if (top != BLOCK_WATER && top != BLOCK_SAND && top != BLOCK_GRASS && top != BLOCK_SNOW) continue;
                float wx = (float)(c->origin_x + x), wz = (float)(c->origin_z + z);
                int far = g->surface_block(g, wx, wz, g->calculate_height(g, wx, wz), g->calculate_temperature(g, wx, wz),
                                           g->calculate_humidity(g, wx, wz));
                compared++;
                kinds[top]++;
                agreed += far == top || (far == BLOCK_OAK_LEAVES && top == BLOCK_GRASS);
            }
    }
    fprintf(stderr, "layered surface: %d of %d columns agree (water %d, sand %d, grass %d, snow %d)\n", agreed,
            compared, kinds[BLOCK_WATER], kinds[BLOCK_SAND], kinds[BLOCK_GRASS], kinds[BLOCK_SNOW]);
    CHECK(compared > 1000);
    CHECK(agreed >= compared * 95 / 100);
    chunk_destroy(c);
    gen_context_destroy(ctx);
    generator_destroy(g);
}

/* The seed's formula with the shipped config (Octaves 4, Persistence 0.5, Scale 0.01). */
static void test_height_formula(void)
{
    Generator *g = make(3);
    CHECK(g && strcmp(g->name, "layered") == 0 && g->version == 1);
    if (!g) return;
    NoiseTable base, detail;
    noise_table_init(&base, rng_derive(3, "layered.base"));
    noise_table_init(&detail, rng_derive(3, "layered.detail"));
    const float pts[][2] = {{0, 0}, {17.5f, -3}, {-250, 999}, {1234, 4321}, {-77, -77}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        float x = pts[i][0], z = pts[i][1];
        float b = noise_fbm2(&base, x * 0.01f, z * 0.01f, 4, 2.0f, 0.5f);
        float d = noise_simplex2(&detail, x * 0.1f, z * 0.1f) * 0.3f;
        float want = (b + d + 1.0f) * 32.0f + 64.0f;
        want = want < 1 ? 1 : want > 255 ? 255 : want;
        CHECK_NEAR(g->calculate_height(g, x, z), want, 1e-4);
    }
    /* the generated column's ground is the floored height; bedrock at the bottom; water up to the sea */
    TerrainChunk *c = chunk_create(0, 0);
    GenContext *ctx = gen_context_create();
    generator_run_pass(g, 1, c, ctx);
    for (int x = 0; x < 16; x += 5) {
        int h = (int)g->calculate_height(g, (float)x, 3.0f);
        CHECK_EQ_INT(chunk_get_contents(c, x, 0, 3), BLOCK_BEDROCK);
        CHECK_EQ_INT(chunk_get_contents(c, x, h, 3), BLOCK_STONE);
        CHECK_EQ_INT(chunk_get_contents(c, x, h + 1, 3), h + 1 <= g->ocean_level(g) ? BLOCK_WATER : BLOCK_AIR);
    }
    CHECK_EQ_INT(g->ocean_level(g), 84);   /* SeaLevel in the shipped chunk_config.yaml */
    gen_context_destroy(ctx);
    chunk_destroy(c);
    generator_destroy(g);
}

/* Golden hashes: a change to the layered generator's output must be deliberate (bump its version). */
static void test_golden(void)
{
    static const struct { uint64_t seed; int cx, cz; uint64_t hash; } GOLD[] = {
        {3, 0, 0, 0x84f3b03ea68ee377ull},
        {3, -5, 7, 0xa075b83b05108c3eull},
        {3, 12, -9, 0xb8b40cd2f4abd81full},
        {42, 0, 0, 0xa4349f840038d133ull},
        {42, -5, 7, 0x837504d2b63ff9f4ull},
        {42, 12, -9, 0xb3265854236a8890ull},
    };
    bool print = getenv("STRATA_PRINT_GOLDEN") != NULL;
    GenContext *ctx = gen_context_create();
    for (size_t i = 0; i < sizeof GOLD / sizeof GOLD[0]; i++) {
        Generator *g = make(GOLD[i].seed);
        if (!g) { CHECK(false); continue; }
        uint64_t h = gen_chunk(g, ctx, GOLD[i].cx, GOLD[i].cz);
        if (print) fprintf(stderr, "{%llu, %d, %d, 0x%016llxull},\n", (unsigned long long)GOLD[i].seed, GOLD[i].cx,
                           GOLD[i].cz, (unsigned long long)h);
        else CHECK(h == GOLD[i].hash);
        generator_destroy(g);
    }
    gen_context_destroy(ctx);
}

/* Row order, reverse order and a fresh context per chunk give the same chunks; the content is varied. */
static void test_order_independence(void)
{
    enum { SIDE = 5, COUNT = SIDE * SIDE };
    Generator *g = make(7);
    if (!g) { CHECK(false); return; }
    uint64_t ref[COUNT], back[COUNT];
    GenContext *ctx = gen_context_create();
    for (int i = 0; i < COUNT; i++) ref[i] = gen_chunk(g, ctx, -2 + i % SIDE, -2 + i / SIDE);
    gen_context_destroy(ctx);
    for (int i = COUNT - 1; i >= 0; i--) {
        ctx = gen_context_create();
        back[i] = gen_chunk(g, ctx, -2 + i % SIDE, -2 + i / SIDE);
        gen_context_destroy(ctx);
    }
    for (int i = 0; i < COUNT; i++) CHECK(ref[i] == back[i]);
    CHECK(ref[0] != ref[1]);
    /* the features exist: ores, trees or plants, water somewhere in 25 chunks */
    int counts[BLOCK_FIRST_FREE] = {0};
    ctx = gen_context_create();
    for (int i = 0; i < COUNT; i++) {
        TerrainChunk *c = chunk_create(-2 + i % SIDE, -2 + i / SIDE);
        generator_generate_chunk(g, c, ctx);
        for (int z = 0; z < 16; z++)
            for (int x = 0; x < 16; x++)
                for (int y = 0; y < 256; y++) {
                    int b = chunk_get_contents(c, x, y, z);
                    if (b < BLOCK_FIRST_FREE) counts[b]++;
                }
        chunk_destroy(c);
    }
    gen_context_destroy(ctx);
    CHECK(counts[BLOCK_COAL_ORE] > 0 && counts[BLOCK_IRON_ORE] > 0);
    CHECK(counts[BLOCK_BEDROCK] == COUNT * 256);
    generator_destroy(g);
}

static const char *write_file(const char *dir, const char *name, const char *text)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void expect_error(const char *dir, const char *text, const char *needle)
{
    const char *path = write_file(dir, "bad.yaml", text);
    StResult rc = generator_layered_check_config(path, blocks);
    CHECK_EQ_INT(rc, ST_ERR_FORMAT);
    char want[700];
    snprintf(want, sizeof want, "%s%s", path, needle);
    CHECK_STR_CONTAINS(st_error_message(), want);
}

static void test_yaml_errors(void)
{
    CHECK_EQ_INT(generator_layered_check_config("assets/worldgen/chunk_config.yaml", blocks), ST_OK);
    char dir[512];
    if (!test_make_temp_dir("layered", dir, sizeof dir)) { CHECK(false); return; }
    expect_error(dir, "SeaLevel: 64\nHeightNoise:\n  Octaves: 4\n  Wobble: 2\n", ":4: unknown key 'Wobble'");
    expect_error(dir, "SeaLevel: deep\n", ":1: SeaLevel: expected an integer");
    expect_error(dir, "SeaLevel: 64\nBedrockLayers: 99\n", ":2: BedrockLayers: expected an integer in 0..16");
    expect_error(dir, "HeightNoise:\n  Persistence: 1.5\n", ":2: HeightNoise.Persistence: expected a number in 0..1");
    expect_error(dir, "Ores:\n  - Type: coal_ore\n    MinY: 5\n  - Type: unobtainium\n",
                 ":4: Ores.Type: unknown block name 'unobtainium'");
    expect_error(dir, "Ores:\n  - Type: coal_ore\n    VeinSize: 40\n", ":3: Ores.VeinSize: expected an integer in 1..16");
    expect_error(dir, "Ores: 3\n", ":1: Ores: expected a list");
    expect_error(dir, "SeaLevel: [1\n", ":");   /* a syntax error still names the file */
    CHECK_EQ_INT(generator_layered_check_config("/nonexistent/chunk_config.yaml", blocks), ST_ERR_IO);
    test_remove_tree(dir);
}

static void test_setting_round_trip(void)
{
    char dir[512];
    if (!test_make_temp_dir("layered-world", dir, sizeof dir)) { CHECK(false); return; }
    WorldMeta meta;
    memset(&meta, 0, sizeof meta);
    meta.format_version = WORLD_FORMAT_VERSION;
    world_settings_default(&meta.settings);
    meta.settings.seed = 3;
    CHECK_EQ_INT(world_settings_apply_flag(world_setting_find_flag("--generator"), "layered", &meta.settings), ST_OK);
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create(&meta.settings, blocks, NULL, &g), ST_OK);
    if (g) {
        snprintf(meta.generator_name, sizeof meta.generator_name, "%s", g->name);
        meta.generator_version = g->version;
        generator_destroy(g);
    }
    CHECK_EQ_INT(world_meta_save(dir, &meta), ST_OK);
    WorldMeta back;
    CHECK_EQ_INT(world_meta_load(dir, &back), ST_OK);
    CHECK(strcmp(back.settings.generator, "layered") == 0);
    CHECK(strcmp(back.generator_name, "layered") == 0);
    g = NULL;
    CHECK_EQ_INT(generator_create_for_world(&back.settings, back.generator_name, back.generator_version, blocks, NULL, &g),
                 ST_OK);
    CHECK(g && strcmp(g->name, "layered") == 0);
    generator_destroy(g);
    /* a world naming gen24 with the layered setting (or the reverse) is refused */
    g = NULL;
    CHECK_EQ_INT(generator_create_for_world(&back.settings, "gen24", 0, blocks, NULL, &g), ST_ERR_FORMAT);
    /* bad names, on the command line and in settings */
    WorldSettings s;
    world_settings_default(&s);
    CHECK_EQ_INT(world_settings_apply_flag(world_setting_find_flag("--generator"), "volcano", &s), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "gen24|layered");
    strcpy(s.generator, "nope");
    CHECK_EQ_INT(world_settings_validate(&s), ST_ERR_ARG);
    /* the default stays gen24 and leaves world.json without the key */
    world_settings_default(&s);
    CHECK_EQ_INT(generator_create(&s, blocks, NULL, &g), ST_OK);
    CHECK(g && strcmp(g->name, "gen24") == 0);
    generator_destroy(g);
    cJSON *obj = cJSON_CreateObject();
    CHECK(world_settings_write(&s, obj));
    CHECK(cJSON_GetObjectItem(obj, "generator") == NULL);
    cJSON_Delete(obj);
    test_remove_tree(dir);
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "blocks: %s\n", st_error_message());
        return 1;
    }
    RUN(test_height_formula);
    RUN(test_golden);
    RUN(test_order_independence);
    RUN(test_yaml_errors);
    RUN(test_setting_round_trip);
    RUN(test_surface_block);
    block_registry_destroy(blocks);
    return check_report();
}
