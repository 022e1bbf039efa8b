/* test_scatter.c — scatter rules (scatter.h) and gen24 version 4's pass 4 from them.
 *
 * The config: the shipped file loads; bad fields fail with the file and field named. The placement: over a
 * large area, brute force, no two accepted points of a layer are closer than the larger of their minSpacings;
 * the points are the same whether the area is asked for at once or tile by tile in a shuffled order; the
 * density map (the shipped example PNG: black left quarter) and listed rectangles keep points out. The world:
 * version 4 chunks around spawn (trees crossing chunk borders) are identical in forward and reversed order
 * with fresh contexts, and hold trees and plants; a rule grows only where the biome lists its layer. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "strata/block.h"
#include "strata/generator.h"
#include "strata/rng.h"
#include "strata/fileio.h"
#include "strata/scatter.h"
#include "test_util.h"

static BlockRegistry *blocks;

static const char *TEST_RULES =
    "{\"version\": 1, \"exclusions\": {\"rects\": [[40, 40, 63, 55]]}, \"rules\": ["
    " {\"name\": \"a\", \"layer\": \"big\", \"objectType\": \"tree:oak\", \"baseDensity\": 0.9, \"minSpacing\": 3.5},"
    " {\"name\": \"b\", \"layer\": \"big\", \"objectType\": \"boulder\", \"baseDensity\": 0.8, \"minSpacing\": 6,"
    "  \"densityMap\": {\"path\": \"scatter/example_density.png\", \"extent\": [-160, -160, 160, 160]},"
    "  \"scaleRange\": [1, 2], \"rotationRange\": [0, 90]},"
    " {\"name\": \"c\", \"layer\": \"small\", \"objectType\": \"plant:tall_grass\", \"baseDensity\": 0.5,"
    "  \"minSpacing\": 1}"
    "]}";

static StResult parse(const char *text, ScatterConfig **cfg)
{
    return scatter_config_parse("assets/test_scatter.json", text, blocks, cfg);
}

/* A pure environment with holes: exercises the callback (candidates it zeroes are never eligible). */
static float holes(void *user, const ScatterRule *rule, int x, int z)
{
    (void)user;
    (void)rule;
    return (rng_hash2(77, x >> 3, z >> 3) % 5u) == 0 ? 0.0f : 1.0f;
}

static void test_config(void)
{
    ScatterConfig *cfg = NULL;
    CHECK_EQ_INT(scatter_config_load(SCATTER_DEFAULT_PATH, blocks, &cfg), ST_OK);
    CHECK(cfg && cfg->rule_count >= 10 && scatter_group_find(cfg, "trees") >= 0 &&
          scatter_layer_find(cfg, "spruce_forest") >= 0);
    scatter_config_free(cfg);
    cfg = NULL;
    CHECK_EQ_INT(parse(TEST_RULES, &cfg), ST_OK);
    CHECK(cfg && cfg->layer_count == 2 && cfg->map_count == 1 && cfg->maps[0].width == 32);
    if (cfg) {
        CHECK_NEAR(cfg->group_reach[0], 6.0, 1e-6);
        CHECK_NEAR(scatter_map_sample(&cfg->maps[0], -150.0f, 0.0f), 0.0, 1e-6);  /* black quarter */
        CHECK_NEAR(scatter_map_sample(&cfg->maps[0], 150.0f, 0.0f), 1.0, 1e-6);   /* white */
        CHECK(scatter_map_sample(&cfg->maps[0], 0.0f, 0.0f) > 0.3f && scatter_map_sample(&cfg->maps[0], 0.0f, 0.0f) < 0.7f);
    }
    scatter_config_free(cfg);
    static const struct { const char *from, *to, *message; } bad[] = {
        {"\"minSpacing\": 3.5", "\"minSpacing\": 0", "rules[0].minSpacing: must be > 0"},
        {"\"baseDensity\": 0.9", "\"baseDensity\": 1.5", "rules[0].baseDensity: must be in 0..1"},
        {"tree:oak", "tree:palm", "rules[0].objectType: unknown tree type 'palm'"},
        {"plant:tall_grass", "plant:no_such", "rules[2].objectType: unknown block 'no_such'"},
        {"\"boulder\"", "\"boulders\"", "rules[1].objectType: 'boulders' is not"},
        {"example_density.png", "missing.png", "rules[1].densityMap.path: cannot read PNG"},
        {"[-160, -160, 160, 160]", "[160, -160, -160, 160]", "rules[1].densityMap.extent"},
        {"\"scaleRange\": [1, 2]", "\"scaleRange\": [2, 1]", "rules[1].scaleRange: must be [min, max]"},
        {"\"name\": \"b\"", "\"name\": \"a\"", "rules[1].name: 'a' is already rules[0]'s"},
        {"[[40, 40, 63, 55]]", "[[40, 40, 30, 55]]", "exclusions.rects[0]"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[2048];
        const char *at = strstr(TEST_RULES, bad[i].from);
        CHECK(at != NULL);
        if (!at) continue;
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - TEST_RULES), TEST_RULES, bad[i].to, at + strlen(bad[i].from));
        cfg = NULL;
        CHECK(parse(text, &cfg) != ST_OK);
        CHECK(cfg == NULL);
        CHECK_STR_CONTAINS(st_error_message(), "assets/test_scatter.json: ");
        CHECK_STR_CONTAINS(st_error_message(), bad[i].message);
    }
}

static int by_x(const void *pa, const void *pb)
{
    const ScatterPoint *a = pa, *b = pb;
    return a->x != b->x ? a->x - b->x : a->z - b->z;
}

static int point_order(const void *pa, const void *pb)
{
    const ScatterPoint *a = pa, *b = pb;
    if (a->rule != b->rule) return a->rule - b->rule;
    if (a->z != b->z) return a->z - b->z;
    return a->x - b->x;
}

#define AREA 160 /* [-AREA, AREA) in x and z */

static int query(const ScatterConfig *cfg, int layer, int x0, int z0, int x1, int z1, ScatterPoint **out)
{
    int n = scatter_points(cfg, 99, layer, x0, z0, x1, z1, holes, NULL, NULL, 0);
    *out = malloc(sizeof **out * (size_t)(n > 0 ? n : 1));
    CHECK(n >= 0 && *out);
    if (n < 0 || !*out) return 0;
    CHECK_EQ_INT(scatter_points(cfg, 99, layer, x0, z0, x1, z1, holes, NULL, *out, n), n);
    return n;
}

static void test_spacing_and_order(void)
{
    ScatterConfig *cfg = NULL;
    CHECK_EQ_INT(parse(TEST_RULES, &cfg), ST_OK);
    if (!cfg) return;
    for (int layer = 0; layer < cfg->group_count; layer++) {
        ScatterPoint *all;
        int n = query(cfg, layer, -AREA, -AREA, AREA, AREA, &all);
        fprintf(stderr, "  layer %s: %d points in %d x %d\n", cfg->groups[layer], n, 2 * AREA, 2 * AREA);
        CHECK(n > 1000);
        /* brute force: every pair of the layer that lies closer in x than the layer's reach (sorted by x) */
        qsort(all, (size_t)n, sizeof *all, by_x);
        long violations = 0, in_rect = 0, b_black = 0, b_points = 0;
        float closest = 1e9f;
        for (int i = 0; i < n; i++) {
            const ScatterPoint *a = &all[i];
            in_rect += a->x >= 40 && a->x <= 63 && a->z >= 40 && a->z <= 55;
            if (a->rule == 1) {
                b_points++;
                b_black += a->x < -80;
                CHECK(a->scale >= 1.0f && a->scale <= 2.0f && a->rotation >= 0.0f && a->rotation <= 90.0f);
            }
            for (int j = i + 1; j < n && (float)(all[j].x - a->x) < cfg->group_reach[layer]; j++) {
                const ScatterPoint *b = &all[j];
                float s = cfg->rules[a->rule].min_spacing, sb = cfg->rules[b->rule].min_spacing;
                if (sb > s) s = sb;
                float dx = (float)(a->x - b->x), dz = (float)(a->z - b->z), d2 = dx * dx + dz * dz;
                violations += d2 < s * s;
                if (a->rule == b->rule && d2 < closest) closest = d2;
            }
        }
        fprintf(stderr, "  closest pair of one rule: %.2f blocks\n", (double)sqrtf(closest));
        CHECK_EQ_INT(violations, 0);
        CHECK_EQ_INT(in_rect, 0);
        if (layer == 0) {
            CHECK(b_points > 100);
            CHECK_EQ_INT(b_black, 0);
        }
        /* tile by tile, shuffled, two tile sizes: the same points */
        for (int tile = 16; tile <= 23; tile += 7) {
            int tiles = (2 * AREA + tile - 1) / tile, count = tiles * tiles;
            int *idx = malloc(sizeof *idx * (size_t)count);
            ScatterPoint *got = malloc(sizeof *got * (size_t)(n + 1));
            if (!idx || !got) { free(idx); free(got); continue; }
            for (int i = 0; i < count; i++) idx[i] = i;
            Rng rng;
            rng_init(&rng, (uint64_t)tile);
            for (int i = count - 1; i > 0; i--) {
                int j = rng_int_range(&rng, 0, i), t = idx[i];
                idx[i] = idx[j];
                idx[j] = t;
            }
            int total = 0;
            bool overflow = false;
            for (int k = 0; k < count && !overflow; k++) {
                int tx = -AREA + (idx[k] % tiles) * tile, tz = -AREA + (idx[k] / tiles) * tile;
                int x1 = tx + tile > AREA ? AREA : tx + tile, z1 = tz + tile > AREA ? AREA : tz + tile;
                ScatterPoint *part;
                int m = query(cfg, layer, tx, tz, x1, z1, &part);
                overflow = total + m > n;
                if (!overflow) memcpy(got + total, part, sizeof *part * (size_t)m);
                total += m;
                free(part);
            }
            CHECK_EQ_INT(total, n);
            if (total == n) {
                qsort(all, (size_t)n, sizeof *all, point_order);
                qsort(got, (size_t)n, sizeof *got, point_order);
                long differ = 0;
                for (int i = 0; i < n; i++)
                    differ += all[i].x != got[i].x || all[i].z != got[i].z || all[i].rule != got[i].rule ||
                              all[i].priority != got[i].priority || all[i].scale != got[i].scale ||
                              all[i].rotation != got[i].rotation;
                CHECK_EQ_INT(differ, 0);
            }
            free(idx);
            free(got);
        }
        free(all);
    }
    scatter_config_free(cfg);
}

/* ---- gen24 version 4 ---- */

static uint64_t chunk_hash(const TerrainChunk *c)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int y = 0; y < 256; y++)
        for (int z = 0; z < 16; z++)
            for (int x = 0; x < 16; x++)
                h = (h ^ (uint64_t)(uint32_t)chunk_get_cell(c, x, y, z)) * 0x100000001b3ull;
    return h;
}

#define SIDE 5

static void test_world_order(void)
{
    WorldSettings s;
    world_settings_default(&s);
    s.seed = 2; /* spruce forest around spawn */
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create_version(&s, blocks, "assets/worldgen.json", 4, &g), ST_OK);
    if (!g) return;
    int sx, sz;
    g->find_coarse_spawn_position(g, &sx, &sz);
    int cx0 = (sx >> 4) - SIDE / 2, cz0 = (sz >> 4) - SIDE / 2;
    uint64_t forward[SIDE * SIDE];
    long trunks = 0, leaves_on_edges = 0, plants = 0;
    TerrainChunk *c = calloc(1, sizeof *c);
    GenContext *ctx = gen_context_create();
    for (int i = 0; i < SIDE * SIDE; i++) {
        chunk_reset(c, cx0 + i % SIDE, cz0 + i / SIDE);
        generator_generate_chunk(g, c, ctx);
        forward[i] = chunk_hash(c);
        for (int y = 1; y < 255; y++)
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) {
                    int b = chunk_get_contents(c, x, y, z);
                    trunks += b == BLOCK_OAK_TRUNK || b == BLOCK_BIRCH_TRUNK || b == BLOCK_SPRUCE_TRUNK ||
                              b == BLOCK_POPLAR_TRUNK || b == BLOCK_MIMOSA_TRUNK;
                    plants += b == BLOCK_TALL_GRASS || b == BLOCK_RED_FLOWER || b == BLOCK_YELLOW_FLOWER ||
                              b == BLOCK_PURPLE_FLOWER || b == BLOCK_DRY_BUSH;
                    leaves_on_edges += (x == 0 || x == 15 || z == 0 || z == 15) &&
                                       (b == BLOCK_OAK_LEAVES || b == BLOCK_BIRCH_LEAVES || b == BLOCK_SPRUCE_LEAVES ||
                                        b == BLOCK_POPLAR_LEAVES || b == BLOCK_MIMOSA_LEAVES);
                }
    }
    gen_context_destroy(ctx);
    fprintf(stderr, "  seed 2 around spawn: %ld trunk cells, %ld leaves on chunk edges, %ld plants\n", trunks,
            leaves_on_edges, plants);
    CHECK(trunks > 50);
    CHECK(leaves_on_edges > 20);
    CHECK(plants > 100);
    /* reversed, each chunk with a fresh context (cold caches) */
    for (int i = SIDE * SIDE - 1; i >= 0; i--) {
        GenContext *fresh = gen_context_create();
        chunk_reset(c, cx0 + i % SIDE, cz0 + i / SIDE);
        generator_generate_chunk(g, c, fresh);
        CHECK(chunk_hash(c) == forward[i]);
        gen_context_destroy(fresh);
    }
    chunk_destroy(c);
    generator_destroy(g);
}

/* A generator of seed 2, version 4, whose worldgen.json (the shipped one), scatter.json (`rules`), biomes.json
 * (`biomes`, or the shipped one when NULL) and templates/box.json (a 3 x 2 x 3 glass box) lie in a temporary
 * folder `dir` (the caller removes it). */
static Generator *temp_generator(char *dir, size_t dir_size, const char *rules, const char *biomes)
{
    char path[400];
    if (!test_make_temp_dir("scatter", dir, dir_size)) return NULL;
    char *text = NULL;
    size_t size = 0;
    CHECK_EQ_INT(fileio_read_all("assets/worldgen.json", &text, &size), ST_OK);
    snprintf(path, sizeof path, "%s/worldgen.json", dir);
    CHECK_EQ_INT(fileio_write_atomic(path, text, size), ST_OK);
    free(text);
    if (!biomes) {
        CHECK_EQ_INT(fileio_read_all("assets/biomes.json", &text, &size), ST_OK);
        biomes = text;
    }
    snprintf(path, sizeof path, "%s/biomes.json", dir);
    CHECK_EQ_INT(fileio_write_atomic(path, biomes, strlen(biomes)), ST_OK);
    free(text == biomes ? text : NULL);
    snprintf(path, sizeof path, "%s/scatter.json", dir);
    CHECK_EQ_INT(fileio_write_atomic(path, rules, strlen(rules)), ST_OK);
    static const char *box = "{\"name\": \"box\", \"size\": [3, 2, 3], \"palette\": {\"g\": \"glass\", \".\": null},"
                             " \"layers\": [[\"ggg\", \"ggg\", \"ggg\"], [\"g.g\", \"...\", \"g.g\"]]}";
    snprintf(path, sizeof path, "%s/templates", dir);
    CHECK_EQ_INT(fileio_make_dirs(path), ST_OK);
    snprintf(path, sizeof path, "%s/templates/box.json", dir);
    CHECK_EQ_INT(fileio_write_atomic(path, box, strlen(box)), ST_OK);
    WorldSettings s;
    world_settings_default(&s);
    s.seed = 2;
    Generator *g = NULL;
    snprintf(path, sizeof path, "%s/worldgen.json", dir);
    StResult rc = generator_create_version(&s, blocks, path, 4, &g);
    if (rc != ST_OK) fprintf(stderr, "  %s\n", st_error_message());
    CHECK_EQ_INT(rc, ST_OK);
    return g;
}

/* Cells of each block in the SIDE x SIDE chunks around g's spawn. */
static void count_blocks(const Generator *g, long counts[BLOCK_MAX])
{
    memset(counts, 0, sizeof(long) * BLOCK_MAX);
    int sx, sz;
    g->find_coarse_spawn_position(g, &sx, &sz);
    TerrainChunk *c = calloc(1, sizeof *c);
    GenContext *ctx = gen_context_create();
    for (int i = 0; i < SIDE * SIDE; i++) {
        chunk_reset(c, (sx >> 4) - SIDE / 2 + i % SIDE, (sz >> 4) - SIDE / 2 + i / SIDE);
        generator_generate_chunk(g, c, ctx);
        for (int y = 1; y < 255; y++)
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++)
                    counts[chunk_get_contents(c, x, y, z)]++;
    }
    gen_context_destroy(ctx);
    chunk_destroy(c);
}

static const char *TREE_RULES =
    "{\"version\": 1, \"rules\": ["
    " {\"name\": \"oak\", \"layer\": \"oak_forest\", \"spacingGroup\": \"trees\", \"objectType\": \"tree:oak\","
    "  \"baseDensity\": 0.6, \"minSpacing\": 5, \"ground\": [\"grass\"]},"
    " {\"name\": \"spruce\", \"layer\": \"spruce_forest\", \"spacingGroup\": \"trees\","
    "  \"objectType\": \"tree:spruce\", \"baseDensity\": 0.6, \"minSpacing\": 5, \"ground\": [\"grass\"]}]}";

/* Trunks of oak and spruce with TREE_RULES (oak in layer "oak_forest", spruce in "spruce_forest", one spacing
 * group) and an all-covering biome that lists `layer`. */
static void trunks_with_biome(const char *layer, long *oak, long *spruce)
{
    *oak = *spruce = -1;
    /* "all" wins everywhere (first match); "never" names both layers, so neither is an unnamed (ungated) one */
    char biomes[640], dir[256];
    snprintf(biomes, sizeof biomes,
             "{\"biomes\": [{\"name\": \"all\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"splatRules\": [],"
             " \"scatterLayers\": [\"%s\"], \"fogColor\": [0.5, 0.5, 0.5], \"fogDensity\": 0.3},"
             " {\"name\": \"never\", \"temperature\": [0, 15], \"humidity\": [0, 15], \"splatRules\": [],"
             " \"scatterLayers\": [\"oak_forest\", \"spruce_forest\"], \"fogColor\": [0.5, 0.5, 0.5],"
             " \"fogDensity\": 0.3}]}", layer);
    Generator *g = temp_generator(dir, sizeof dir, TREE_RULES, biomes);
    if (g) {
        static long counts[BLOCK_MAX];
        count_blocks(g, counts);
        *oak = counts[BLOCK_OAK_TRUNK];
        *spruce = counts[BLOCK_SPRUCE_TRUNK];
        generator_destroy(g);
    }
    test_remove_tree(dir);
}

static void test_biome_layers(void)
{
    long oak, spruce;
    trunks_with_biome("spruce_forest", &oak, &spruce);
    fprintf(stderr, "  biome lists spruce_forest: %ld oak, %ld spruce trunk cells\n", oak, spruce);
    CHECK_EQ_INT(oak, 0);
    CHECK(spruce > 100);
    trunks_with_biome("oak_forest", &oak, &spruce);
    fprintf(stderr, "  biome lists oak_forest: %ld oak, %ld spruce trunk cells\n", oak, spruce);
    CHECK(oak > 100);
    CHECK_EQ_INT(spruce, 0);
}

/* Boulders, rocks and templates: a clay boulder rule, a glass template rule (the same world without them has
 * neither block above the sea), and spacing kept by the objects the generator lists. */
static void test_objects(void)
{
    static const char *rules =
        "{\"version\": 1, \"rules\": ["
        " {\"name\": \"boulder\", \"layer\": \"stones\", \"objectType\": \"boulder\", \"block\": \"clay\","
        "  \"baseDensity\": 0.5, \"minSpacing\": 12, \"scaleRange\": [1.5, 3], \"sinkAmount\": 1},"
        " {\"name\": \"pebble\", \"layer\": \"stones\", \"objectType\": \"rock\", \"block\": \"clay\","
        "  \"baseDensity\": 0.5, \"minSpacing\": 6, \"scaleRange\": [0.5, 1]},"
        " {\"name\": \"box\", \"layer\": \"boxes\", \"objectType\": \"template:box\", \"baseDensity\": 0.3,"
        "  \"minSpacing\": 20, \"rotationRange\": [0, 360], \"ground\": [\"grass\", \"sand\"]}]}";
    char dir[256];
    Generator *g = temp_generator(dir, sizeof dir, rules, NULL);
    if (g) {
        static long counts[BLOCK_MAX];
        count_blocks(g, counts);
        fprintf(stderr, "  %ld clay, %ld glass cells\n", counts[BLOCK_CLAY], counts[BLOCK_GLASS]);
        CHECK(counts[BLOCK_CLAY] > 100);
        CHECK(counts[BLOCK_GLASS] > 20);
        int n = generator_list_scatter(g, -512, -512, 512, 512, NULL, 0);
        GeneratorScatterPoint *pts = malloc(sizeof *pts * (size_t)(n > 0 ? n : 1));
        CHECK(n > 50 && pts);
        if (pts && n > 0) {
            CHECK_EQ_INT(generator_list_scatter(g, -512, -512, 512, 512, pts, n), n);
            long close = 0, kinds[SCATTER_KIND_COUNT] = {0};
            for (int i = 0; i < n; i++) {
                kinds[pts[i].kind]++;
                for (int j = i + 1; j < n; j++) {
                    bool boxes = pts[i].kind == SCATTER_TEMPLATE, boxes_j = pts[j].kind == SCATTER_TEMPLATE;
                    if (boxes != boxes_j) continue; /* two spacing groups */
                    float s = boxes ? 20.0f : (pts[i].kind == SCATTER_BOULDER || pts[j].kind == SCATTER_BOULDER ? 12.0f : 6.0f);
                    float dx = (float)(pts[i].x - pts[j].x), dz = (float)(pts[i].z - pts[j].z);
                    close += dx * dx + dz * dz < s * s;
                }
            }
            fprintf(stderr, "  listed: %ld boulders, %ld rocks, %ld templates\n", kinds[SCATTER_BOULDER],
                    kinds[SCATTER_ROCK], kinds[SCATTER_TEMPLATE]);
            CHECK(kinds[SCATTER_BOULDER] > 0 && kinds[SCATTER_ROCK] > 0 && kinds[SCATTER_TEMPLATE] > 0);
            CHECK_EQ_INT(close, 0);
        }
        free(pts);
        generator_destroy(g);
    }
    test_remove_tree(dir);
    /* the shipped rules without them: no clay boulder or glass above ground */
    g = temp_generator(dir, sizeof dir, TREE_RULES, NULL);
    if (g) {
        static long counts[BLOCK_MAX];
        count_blocks(g, counts);
        CHECK_EQ_INT(counts[BLOCK_GLASS], 0);
        generator_destroy(g);
    }
    test_remove_tree(dir);
}

/* The shipped rules in a generated world: no two listed trees of one spacing group closer than the larger of
 * their minSpacings, and the same trees listed at once or tile by tile. */
/* How many of the `m` points of `tile` (at most n + 1 written) are among the n of `all`. */
static long scatter_found_in(const GeneratorScatterPoint *all, int n, const GeneratorScatterPoint *tile, int m)
{
    long found = 0;
    for (int k = 0; k < m && k <= n; k++)
        for (int i = 0; i < n; i++)
            if (all[i].x == tile[k].x && all[i].z == tile[k].z && all[i].y == tile[k].y && all[i].rule == tile[k].rule) {
                found++;
                break;
            }
    return found;
}

static void test_world_spacing(void)
{
    WorldSettings s;
    world_settings_default(&s);
    s.seed = 7;
    Generator *g = NULL;
    ScatterConfig *cfg = NULL;
    CHECK_EQ_INT(generator_create_version(&s, blocks, "assets/worldgen.json", 4, &g), ST_OK);
    CHECK_EQ_INT(scatter_config_load(SCATTER_DEFAULT_PATH, blocks, &cfg), ST_OK);
    if (!g || !cfg) return;
    int n = generator_list_scatter(g, -256, -256, 256, 256, NULL, 0);
    GeneratorScatterPoint *all = malloc(sizeof *all * (size_t)(n + 1)), *tile = malloc(sizeof *tile * (size_t)(n + 1));
    CHECK(n > 100 && all && tile);
    if (all && tile && n > 0) {
        CHECK_EQ_INT(generator_list_scatter(g, -256, -256, 256, 256, all, n), n);
        long close = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                const ScatterRule *a = &cfg->rules[all[i].rule], *b = &cfg->rules[all[j].rule];
                if (a->group_index != b->group_index) continue;
                float sp = a->min_spacing > b->min_spacing ? a->min_spacing : b->min_spacing;
                float dx = (float)(all[i].x - all[j].x), dz = (float)(all[i].z - all[j].z);
                close += dx * dx + dz * dz < sp * sp;
            }
        fprintf(stderr, "  seed 7: %d trees listed in 512 x 512, %ld pairs too close\n", n, close);
        CHECK_EQ_INT(close, 0);
        long found = 0;
        for (int tz = -256; tz < 256; tz += 48)
            for (int tx = -256; tx < 256; tx += 48) {
                int m = generator_list_scatter(g, tx, tz, tx + 48 > 256 ? 256 : tx + 48, tz + 48 > 256 ? 256 : tz + 48,
                                               tile, n + 1);
                found += scatter_found_in(all, n, tile, m);
            }
        CHECK_EQ_INT(found, n);
        /* the same areas with one kept context (generator_list_scatter_in), taken in the other order: the same
         * objects, however much of the region the context already derived */
        GenContext *ctx = gen_context_create();
        CHECK(ctx != NULL);
        long kept = 0, listed = 0;
        for (int tz = 256 - 48; ctx && tz > -256 - 48; tz -= 48)
            for (int tx = 256 - 48; tx > -256 - 48; tx -= 48) {
                int ax = tx < -256 ? -256 : tx, az = tz < -256 ? -256 : tz;
                int m = generator_list_scatter_in(g, ctx, ax, az, tx + 48, tz + 48, tile, n + 1);
                CHECK(m >= 0);
                listed += m;
                kept += scatter_found_in(all, n, tile, m);
            }
        CHECK_EQ_INT(kept, n);
        CHECK_EQ_INT(listed, n);
        gen_context_destroy(ctx);
    }
    free(all);
    free(tile);
    scatter_config_free(cfg);
    generator_destroy(g);
}

int main(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK)
        return 1;
    RUN(test_config);
    RUN(test_spacing_and_order);
    RUN(test_world_order);
    RUN(test_biome_layers);
    RUN(test_objects);
    RUN(test_world_spacing);
    block_registry_destroy(blocks);
    return check_report();
}
