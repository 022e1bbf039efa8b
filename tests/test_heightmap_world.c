/* test_heightmap_world.c — worlds built from a heightmap (terrain mode heightmap): the surface follows the
 * map, the land falls to the ocean outside it, a biome map sets the climate, splat rules set the surface,
 * world.json keeps the map's settings and hash, a changed map is refused, generation is order independent. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image_write.h>

#include "check.h"
#include "test_util.h"
#include "strata/block.h"
#include "strata/generator.h"
#include "strata/heightfield.h"
#include "strata/heightfield_io.h"
#include "strata/log.h"
#include "strata/world_file.h"

#define RUN_ARG(fn, arg) do { fprintf(stderr, "-- %s\n", #fn); fn(arg); } while (0)
#define MAP_SIDE 129          /* pixels; at scale 2 the map spans x, z in -128..128 */
#define MAP_SCALE 2.0f

static BlockRegistry *blocks;
static char root[256];

/* A cone-shaped island: 1.0 at the centre, 0 at the rim (a 16-bit PNG's full range). */
static float cone(int x, int y)
{
    float dx = (float)(x - MAP_SIDE / 2), dy = (float)(y - MAP_SIDE / 2);
    float r = sqrtf(dx * dx + dy * dy) / (float)(MAP_SIDE / 2);
    return r > 1.0f ? 0.0f : 1.0f - r;
}

static void write_map(const char *path, float bump)
{
    Heightfield hf;
    CHECK_EQ_INT(heightfield_init(&hf, MAP_SIDE, MAP_SIDE), ST_OK);
    for (int y = 0; y < MAP_SIDE; y++)
        for (int x = 0; x < MAP_SIDE; x++) hf.heights[y * MAP_SIDE + x] = (cone(x, y) + bump) * 65535.0f / (1.0f + bump);
    HeightExportOptions opts = { .bits = 16, .normalize = false };
    CHECK_EQ_INT(heightfield_export(path, &hf, &opts), ST_OK);
    heightfield_free(&hf);
}

static void settings_for(WorldSettings *s, const char *map)
{
    world_settings_default(s);
    s->seed = 99;
    s->mode = TERRAIN_MODE_HEIGHTMAP;
    snprintf(s->heightmap, sizeof s->heightmap, "%s", map);
    s->height_min = 40.0f;
    s->height_max = 140.0f;
    s->map_scale = MAP_SCALE;
}

static TerrainChunk *new_chunk(int cx, int cz)
{
    return chunk_create(cx, cz);
}

/* The highest solid (not air, not water) cell of a column after pass 1. */
static int ground_top(const TerrainChunk *c, int x, int z)
{
    for (int y = 255; y >= 0; y--) {
        int b = chunk_get_contents(c, x, y, z);
        if (b != BLOCK_AIR && b != BLOCK_WATER) return y;
    }
    return -1;
}

static void test_surface_follows_map(const char *map)
{
    WorldSettings s;
    settings_for(&s, map);
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create(&s, blocks, "assets/worldgen.json", &g), ST_OK);
    if (!g) return;
    CHECK(strcmp(g->name, "heightmap") == 0);
    CHECK_EQ_INT(strlen(g->settings.heightmap_hash), 16);   /* recorded for world.json, */
    CHECK_EQ_INT(g->settings.map_width, MAP_SIDE);           /* with the map's size */
    CHECK_EQ_INT(g->settings.map_height, MAP_SIDE);
    GenContext *ctx = gen_context_create();
    int off = 0, checked = 0;
    /* chunks across the map: the centre, a slope, the rim */
    static const int chunks[][2] = { {0, 0}, {-1, -1}, {3, 0}, {0, -5}, {-4, 4} };
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
        TerrainChunk *c = new_chunk(chunks[k][0], chunks[k][1]);
        generator_run_pass(g, 1, c, ctx);
        for (int z = 0; z < 16; z++)
            for (int x = 0; x < 16; x++) {
                float wx = (float)(c->origin_x + x), wz = (float)(c->origin_z + z);
                float px = wx / MAP_SCALE + MAP_SIDE / 2, pz = wz / MAP_SCALE + MAP_SIDE / 2;
                if (px < 1 || pz < 1 || px > MAP_SIDE - 2 || pz > MAP_SIDE - 2) continue;
                /* the map's own height: bilinear of the cone is within a block of its bicubic sample */
                float want = 40.0f + 100.0f * cone((int)lrintf(px), (int)lrintf(pz));
                int top = ground_top(c, x, z);
                if (fabsf((float)top - want) > 3.0f) off++;
                checked++;
            }
        chunk_destroy(c);
    }
    CHECK(checked > 500);
    CHECK_EQ_INT(off, 0);
    /* far outside the map the land lies under the sea */
    TerrainChunk *c = new_chunk(20, -20);
    generator_run_pass(g, 1, c, ctx);
    int dry = 0;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++)
            if (ground_top(c, x, z) >= g->ocean_level(g)) dry++;
    CHECK_EQ_INT(dry, 0);
    CHECK_EQ_INT(chunk_get_contents(c, 5, g->ocean_level(g), 5), BLOCK_WATER);
    /* calculate_height agrees with the map (spawn search, strata-map) */
    CHECK_NEAR(g->calculate_height(g, 0.0f, 0.0f), 140.0f, 1.5f);
    CHECK(g->calculate_height(g, 1000.0f, 1000.0f) < (float)g->ocean_level(g));
    chunk_destroy(c);
    gen_context_destroy(ctx);
    generator_destroy(g);
}

static uint64_t chunk_hash(const TerrainChunk *c)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++)
            for (int y = 0; y < 256; y++) h = (h ^ (uint32_t)chunk_get_cell(c, x, y, z)) * 0x100000001b3ull;
    return h;
}

static void test_order_independent(const char *map)
{
    WorldSettings s;
    settings_for(&s, map);
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create(&s, blocks, "assets/worldgen.json", &g), ST_OK);
    if (!g) return;
    uint64_t first[3];
    static const int order[2][3][2] = { { {0, 0}, {1, 0}, {-2, 1} }, { {-2, 1}, {1, 0}, {0, 0} } };
    for (int run = 0; run < 2; run++) {
        GenContext *ctx = gen_context_create();
        for (int i = 0; i < 3; i++) {
            TerrainChunk *c = new_chunk(order[run][i][0], order[run][i][1]);
            generator_generate_chunk(g, c, ctx);
            uint64_t h = chunk_hash(c);
            int slot = run == 0 ? i : 2 - i;
            if (run == 0) first[slot] = h;
            else CHECK(first[slot] == h);
            chunk_destroy(c);
        }
        gen_context_destroy(ctx);
    }
    generator_destroy(g);
}

static void test_changed_map_refused(const char *map)
{
    WorldSettings s;
    settings_for(&s, map);
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create(&s, blocks, "assets/worldgen.json", &g), ST_OK);
    if (!g) return;
    WorldSettings recorded = g->settings;    /* what world.json keeps */
    generator_destroy(g);
    /* the same map again: accepted */
    CHECK_EQ_INT(generator_create(&recorded, blocks, "assets/worldgen.json", &g), ST_OK);
    generator_destroy(g);
    g = NULL;
    /* the map changed on disk: refused, naming the file */
    char changed[400];
    snprintf(changed, sizeof changed, "%s/changed.png", root);
    write_map(changed, 0.0f);
    WorldSettings s2;
    settings_for(&s2, changed);
    CHECK_EQ_INT(generator_create(&s2, blocks, "assets/worldgen.json", &g), ST_OK);
    WorldSettings rec2 = g->settings;
    generator_destroy(g);
    g = NULL;
    write_map(changed, 0.2f);
    CHECK_EQ_INT(generator_create(&rec2, blocks, "assets/worldgen.json", &g), ST_ERR_STATE);
    CHECK(g == NULL);
    CHECK_STR_CONTAINS(st_error_message(), "changed.png changed since this world was made");
    /* a missing map: a clear error */
    WorldSettings s3;
    settings_for(&s3, "/nonexistent/map.png");
    CHECK(generator_create(&s3, blocks, "assets/worldgen.json", &g) != ST_OK);
    CHECK_STR_CONTAINS(st_error_message(), "/nonexistent/map.png");
    /* heightmap mode without a file is a settings error */
    WorldSettings s4;
    world_settings_default(&s4);
    s4.mode = TERRAIN_MODE_HEIGHTMAP;
    CHECK_EQ_INT(generator_create(&s4, blocks, "assets/worldgen.json", &g), ST_ERR_ARG);
    CHECK_STR_CONTAINS(st_error_message(), "heightmap");
}

static void test_world_json_keeps_map(const char *map)
{
    WorldSettings s;
    settings_for(&s, map);
    s.map_width = 0;
    snprintf(s.heightmap_hash, sizeof s.heightmap_hash, "0123456789abcdef");
    WorldMeta meta;
    memset(&meta, 0, sizeof meta);
    meta.format_version = WORLD_FORMAT_VERSION;
    meta.settings = s;
    snprintf(meta.generator_name, sizeof meta.generator_name, "heightmap");
    meta.generator_version = 1;
    CHECK_EQ_INT(world_meta_save(root, &meta), ST_OK);
    WorldMeta back;
    CHECK_EQ_INT(world_meta_load(root, &back), ST_OK);
    CHECK_EQ_INT(back.settings.mode, TERRAIN_MODE_HEIGHTMAP);
    CHECK(strcmp(back.settings.heightmap, map) == 0);
    CHECK(strcmp(back.settings.heightmap_hash, "0123456789abcdef") == 0);
    CHECK_NEAR(back.settings.height_min, 40.0, 1e-6);
    CHECK_NEAR(back.settings.height_max, 140.0, 1e-6);
    CHECK_NEAR(back.settings.map_scale, MAP_SCALE, 1e-6);
}

/* A biome map, desert on the west half and tundra on the east: hot and dry west, cold east. */
static void test_biome_map(const char *map)
{
    char biome[400];
    snprintf(biome, sizeof biome, "%s/biomes.png", root);
    unsigned char px[8 * 8 * 3];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            unsigned char *p = &px[(y * 8 + x) * 3];
            if (x < 4) { p[0] = 232; p[1] = 208; p[2] = 128; }   /* desert */
            else { p[0] = 224; p[1] = 240; p[2] = 255; }         /* tundra */
        }
    CHECK(stbi_write_png(biome, 8, 8, 3, px, 8 * 3) != 0);
    WorldSettings s;
    settings_for(&s, map);
    snprintf(s.biome_map, sizeof s.biome_map, "%s", biome);
    s.biome_blend = 8.0f;
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create(&s, blocks, "assets/worldgen.json", &g), ST_OK);
    if (!g) return;
    CHECK(g->calculate_temperature(g, -100.0f, 0.0f) >= 13);
    CHECK(g->calculate_humidity(g, -100.0f, 0.0f) <= 3);
    CHECK(g->calculate_temperature(g, 100.0f, 0.0f) <= 3);
    /* and the shafts carry it */
    GenContext *ctx = gen_context_create();
    TerrainChunk *c = new_chunk(-7, 0);
    generator_run_pass(g, 1, c, ctx);
    CHECK(shaft_temperature(c->shafts[CHUNK_SHAFT_INDEX(3, 3)]) >= 13);
    chunk_destroy(c);
    gen_context_destroy(ctx);
    generator_destroy(g);
}

/* Splat rules: everything above a relative height of 0.5 is sand; below, the default layer (grass). */
static void test_splat_rules(const char *map)
{
    char rules[400];
    snprintf(rules, sizeof rules, "%s/rules.json", root);
    FILE *f = fopen(rules, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("{\"layers\": [\"grass\", \"sand\"], \"default\": \"grass\", \"relative\": true,\n"
          " \"rules\": [{\"layer\": \"sand\", \"minHeight\": 0.5}]}\n", f);
    fclose(f);
    WorldSettings s;
    settings_for(&s, map);
    snprintf(s.splat_rules, sizeof s.splat_rules, "%s", rules);
    Generator *g = NULL;
    StResult rc = generator_create(&s, blocks, "assets/worldgen.json", &g);
    if (rc != ST_OK) fprintf(stderr, "splat rules: %s\n", st_error_message());
    CHECK_EQ_INT(rc, ST_OK);
    if (!g) return;
    GenContext *ctx = gen_context_create();
    TerrainChunk *c = new_chunk(0, 0);   /* the cone's top: relative height ~1 */
    generator_run_pass(g, 1, c, ctx);
    generator_run_pass(g, 2, c, ctx);
    int sand = 0;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++)
            if (chunk_get_contents(c, x, ground_top(c, x, z), z) == BLOCK_SAND) sand++;
    CHECK_EQ_INT(sand, 256);
    chunk_destroy(c);
    /* a rules file naming no block is refused, naming the file and layer */
    f = fopen(rules, "w");
    fputs("{\"layers\": [\"grass\", \"moonrock\"], \"default\": \"grass\", \"rules\": []}\n", f);
    fclose(f);
    generator_destroy(g);
    g = NULL;
    CHECK(generator_create(&s, blocks, "assets/worldgen.json", &g) != ST_OK);
    CHECK_STR_CONTAINS(st_error_message(), "moonrock");
    gen_context_destroy(ctx);
}

/* With the built-in splat rules sand lies only low: on the beach by the sea and in the rules' low band (relative
 * height under 0.25 + its blend), never up the slopes. The cone's slopes run from the sea to 140 over every
 * climate the seed's fields give; sand halfway up them came from pass 1's sandstone (hot and dry climate),
 * which fell through the grass layer into gen24's desert sand whatever the rules said, or stayed bare where
 * the rules (rock) or gen24 (high ground) left the rock bare: sand-coloured outcrops. Heightmap version 1
 * (worlds made before) keeps doing so, so their new chunks match their old ones. Returns the sand columns
 * above the beach and the low band, or -1. */
static int sand_up_the_slopes(const char *map, int version, int *sand)
{
    WorldSettings s;
    settings_for(&s, map);
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create_version(&s, blocks, "assets/worldgen.json", version, &g), ST_OK);
    if (!g) return -1;
    CHECK_EQ_INT(g->version, version ? version : 2);
    GenContext *ctx = gen_context_create();
    int sea = g->ocean_level(g), low_top = 40 + (int)ceilf(100.0f * (0.25f + 0.02f));
    int sand_high = 0, columns = 0, highest = -1;
    *sand = 0;
    for (int cz = -8; cz < 8; cz++)
        for (int cx = -8; cx < 8; cx++) {
            TerrainChunk *c = new_chunk(cx, cz);
            generator_run_pass(g, 1, c, ctx);
            generator_run_pass(g, 2, c, ctx);
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) {
                    int top = ground_top(c, x, z);
                    if (top < sea) continue;
                    columns++;
                    int b = chunk_get_contents(c, x, top, z);
                    if (b != BLOCK_SAND && b != BLOCK_SANDSTONE) continue;   /* sand-coloured, seen from afar */
                    (*sand)++;
                    if (top > sea + 4 && top > low_top) sand_high++;
                    if (top > highest) highest = top;
                }
            chunk_destroy(c);
        }
    fprintf(stderr, "version %d (0: the newest): sand or sandstone on %d of %d dry columns, %d above the beach and the low band (highest at y "
            "%d)\n", version, *sand, columns, sand_high, highest);
    CHECK(columns > 20000);
    gen_context_destroy(ctx);
    generator_destroy(g);
    return sand_high;
}

static void test_sand_stays_low(const char *map)
{
    int sand = 0;
    CHECK_EQ_INT(sand_up_the_slopes(map, 0, &sand), 0);
    CHECK(sand > 0);            /* the beach is still there */
    CHECK(sand_up_the_slopes(map, 1, &sand) > 1000);
}

int main(void)
{
    log_set_level(LOG_WARN);
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        return 1;
    }
    if (!test_make_temp_dir("heightmap-world", root, sizeof root)) return 1;
    char map[400];
    snprintf(map, sizeof map, "%s/cone.png", root);
    write_map(map, 0.0f);
    RUN_ARG(test_surface_follows_map, map);
    RUN_ARG(test_order_independent, map);
    RUN_ARG(test_changed_map_refused, map);
    RUN_ARG(test_world_json_keeps_map, map);
    RUN_ARG(test_biome_map, map);
    RUN_ARG(test_splat_rules, map);
    RUN_ARG(test_sand_stays_low, map);
    test_remove_tree(root);
    block_registry_destroy(blocks);
    return check_report();
}
