/* test_seeds.c — every file of examples/seeds/ (the design's seed examples, as a world builder would copy them)
 * loads as written and works:
 *   001_wfc_tileset.json: the seed's adjacency object, rotations, tags, weights, .fbx meshes, no boundarySocket;
 *       solves on a 4x1x4 grid (every face pairs with its neighbour's), its .fbx meshes voxelize to the
 *       tileSize (air where the tile is open, a floor under it) through a cache, read back the same;
 *   001_scatter.json: every field of the seed's rule (densityMap as a path, alignToNormal, a fractional
 *       sinkAmount, no name or layer); scatters objects over its density map, spaced by minSpacing;
 *   004_stations.json: "model": "bank.glb" with the seed's fields and defaults; voxelized, and the bank placed
 *       on its flat zone in a chunk of the layered generator;
 *   002_chunk_config.yaml: the seed's ChunkGeneration root; the layered generator reads it and generates a
 *       chunk (bedrock under, water up to its SeaLevel 64, which the shipped file's 84 is not). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "strata/block.h"
#include "strata/generator.h"
#include "strata/scatter.h"
#include "strata/station.h"
#include "strata/voxel_model.h"
#include "strata/wfc.h"

#define SEEDS "examples/seeds/"
static BlockRegistry *blocks;
static char cache[64];

static void test_tileset(void)
{
    WfcTileset *ts = NULL;
    CHECK_EQ_INT(wfc_tileset_load(SEEDS "001_wfc_tileset.json", &ts), ST_OK);
    if (!ts)
        return;
    CHECK_EQ_INT(ts->tile_count, 5);
    CHECK_EQ_INT(ts->boundary_socket, -1);
    int door = wfc_tileset_find_socket(ts, "open_door"), wall = wfc_tileset_find_socket(ts, "wall");
    CHECK(door >= 0 && wall >= 0 && ts->pairs[door][door] && ts->pairs[wall][wall] && !ts->pairs[door][wall]);
    CHECK(wfc_tile_has_tag(&ts->tiles[2], "junction"));
    CHECK_NEAR(ts->tiles[0].weight, 3.0, 1e-6);
    CHECK_STR_CONTAINS(ts->tiles[0].mesh, ".fbx");
    CHECK_EQ_INT(ts->variant_count, 2 + 4 + 4 + 4 + 1);   /* corridor_straight lists rotations 0 and 90 */
    for (int seed = 0; seed < 8; seed++) {
        WfcGrid g = {0};
        CHECK_EQ_INT(wfc_solve(ts, 4, 1, 4, (uint64_t)seed, NULL, 0, &g), ST_OK);
        if (!g.tiles)
            continue;
        int doors_out = 0;
        for (int z = 0; z < 4; z++)
            for (int x = 0; x < 4; x++) {
                const WfcVariant *v = &ts->variants[wfc_grid_at(&g, x, 0, z)];
                if (x + 1 < 4)
                    CHECK(wfc_variants_compatible(ts, wfc_grid_at(&g, x, 0, z), WFC_PX, wfc_grid_at(&g, x + 1, 0, z)));
                if (z + 1 < 4)
                    CHECK(wfc_variants_compatible(ts, wfc_grid_at(&g, x, 0, z), WFC_PZ, wfc_grid_at(&g, x, 0, z + 1)));
                doors_out += (x == 0 && v->sockets[WFC_NX] == door) + (x == 3 && v->sockets[WFC_PX] == door);
            }
        (void)doors_out;   /* the boundary is free: doors may lead out (how many is the seed's business) */
        wfc_grid_free(&g);
    }
    /* the .fbx meshes, voxelized to the 6x5x6 tileSize through the cache */
    CHECK_EQ_INT(wfc_tileset_load_templates_cached(ts, blocks, cache), ST_OK);
    for (int i = 0; i < ts->tile_count; i++) {
        const VoxelTemplate *t = &ts->tiles[i].mesh_template;
        CHECK(t->voxels && t->size[0] == 6 && t->size[1] == 5 && t->size[2] == 6);
        if (!t->voxels)
            continue;
        CHECK(voxel_template_get(t, 3, 0, 3) > 0);           /* the floor */
        CHECK_EQ_INT(voxel_template_get(t, 3, 2, 3), BLOCK_AIR);  /* the room inside */
    }
    /* corridor_straight: open to +x and -x, walled to +z and -z (at rotation 0) */
    const VoxelTemplate *c = &ts->tiles[0].mesh_template;
    if (c->voxels) {
        CHECK_EQ_INT(voxel_template_get(c, 0, 2, 3), BLOCK_AIR);
        CHECK(voxel_template_get(c, 3, 2, 0) > 0);
    }
    /* a second load reads the cache and gives the same cells */
    WfcTileset *again = NULL;
    CHECK_EQ_INT(wfc_tileset_load(SEEDS "001_wfc_tileset.json", &again), ST_OK);
    CHECK_EQ_INT(wfc_tileset_load_templates_cached(again, blocks, cache), ST_OK);
    for (int i = 0; again && i < ts->tile_count; i++)
        CHECK(memcmp(again->tiles[i].mesh_template.voxels, ts->tiles[i].mesh_template.voxels, 6 * 5 * 6 * 2) == 0);
    wfc_tileset_destroy(again);
    wfc_tileset_destroy(ts);
}

static float env_all(void *user, const ScatterRule *rule, int x, int z)
{
    (void)user, (void)rule, (void)x, (void)z;
    return 1.0f;
}

static void test_scatter(void)
{
    ScatterConfig *cfg = NULL;
    CHECK_EQ_INT(scatter_config_load(SEEDS "001_scatter.json", blocks, &cfg), ST_OK);
    if (!cfg)
        return;
    CHECK_EQ_INT(cfg->rule_count, 3);
    const ScatterRule *oak = &cfg->rules[0], *boulder = &cfg->rules[1];
    CHECK_EQ_INT(oak->kind, SCATTER_TREE);
    CHECK(strcmp(oak->name, "tree:oak") == 0 && strcmp(oak->layer, "tree:oak") == 0);
    CHECK(oak->map >= 0 && cfg->maps[oak->map].width == 128);
    CHECK_NEAR(oak->max_slope, 30.0, 1e-6);
    CHECK(oak->height_min == 60 && oak->height_max == 140);
    CHECK_NEAR(oak->scale_min, 0.8, 1e-6);
    CHECK_NEAR(oak->rotation_max, 360.0, 1e-6);
    CHECK(!oak->align_to_normal && boulder->align_to_normal);
    CHECK_NEAR(oak->sink_amount, 0.2, 1e-6);
    CHECK_EQ_INT(oak->sink, 0);
    CHECK_EQ_INT(boulder->sink, 1);   /* 0.5 rounds up */
    /* scatter the oaks over the map's extent (-64..64): points where the map is bright, none where it is black */
    static ScatterPoint pts[4096];
    int n = scatter_points(cfg, 7, oak->group_index, -64, -64, 64, 64, env_all, NULL, pts, 4096);
    CHECK(n > 20 && n <= 4096);
    int dark = 0;
    for (int i = 0; i < n && i < 4096; i++) {
        for (int j = i + 1; j < n && j < 4096; j++)
            if (pts[i].rule == pts[j].rule) {
                float dx = (float)(pts[i].x - pts[j].x), dz = (float)(pts[i].z - pts[j].z);
                CHECK(sqrtf(dx * dx + dz * dz) >= cfg->rules[pts[i].rule].min_spacing);
            }
        dark += scatter_map_sample(&cfg->maps[oak->map], (float)pts[i].x, (float)pts[i].z) < 0.01f;
        CHECK(pts[i].scale >= 0.8f && pts[i].scale <= 1.2f && pts[i].rotation >= 0 && pts[i].rotation <= 360);
    }
    CHECK_EQ_INT(dark, 0);
    scatter_config_free(cfg);
}

/* The layered generator reading seed 002's file. */
static Generator *seed_generator(void)
{
    WorldSettings s;
    world_settings_default(&s);
    s.seed = 4;
    s.mode = TERRAIN_MODE_CONTINENT;
    snprintf(s.generator, sizeof s.generator, "layered");
    Generator *g = NULL;
    CHECK_EQ_INT(generator_create_layered(&s, blocks, SEEDS "002_chunk_config.yaml", &g), ST_OK);
    return g;
}

static void test_chunk_config(void)
{
    CHECK_EQ_INT(generator_layered_check_config(SEEDS "002_chunk_config.yaml", blocks), ST_OK);
    Generator *g = seed_generator();
    if (!g)
        return;
    CHECK_EQ_INT(g->ocean_level(g), 64);
    TerrainChunk *c = chunk_create(0, 0);
    GenContext *ctx = gen_context_create();
    generator_generate_chunk(g, c, ctx);
    int water = 0;
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) {
            CHECK_EQ_INT(chunk_get_contents(c, x, 0, z), BLOCK_BEDROCK);
            CHECK_EQ_INT(chunk_get_contents(c, x, 65, z) == BLOCK_WATER, 0);   /* no water above SeaLevel */
            water += chunk_get_contents(c, x, 64, z) == BLOCK_WATER;
        }
    (void)water;
    gen_context_destroy(ctx);
    chunk_destroy(c);
    generator_destroy(g);
}

static void test_stations(void)
{
    StationManifest m;
    CHECK_EQ_INT(station_manifest_load_cached(SEEDS "004_stations.json", blocks, cache, &m), ST_OK);
    CHECK_EQ_INT(m.count, 2);
    int bank = station_manifest_find(&m, "bank"), house = station_manifest_find(&m, "glb_house");
    CHECK(bank == 0 && house == 1);
    if (bank != 0 || house != 1)
        return;
    const StationDef *d = &m.defs[bank];
    /* bank.glb is 11 x 10 x 10 m: at scale 1, as many blocks; the footprint defaults to its x, z */
    CHECK(d->model.size[0] == 11 && d->model.size[1] == 10 && d->model.size[2] == 10);
    CHECK(d->footprint[0] == 11 && d->footprint[1] == 10);
    CHECK(d->flatten && d->padding == 2.0f && d->blend == 6.0f && d->y_offset == 0);
    CHECK_STR_CONTAINS(d->examine, "bank");
    /* the defaults of an entry that names only type and model */
    const StationDef *h = &m.defs[house];
    CHECK(h->flatten && h->padding == 2.0f && h->blend == 6.0f && h->footprint[0] == 9 && h->footprint[1] == 7);
    /* walls of sandstone, a floor of stone, a door in the -z wall (x 4..6 at y 1..4), air... kept inside */
    CHECK_EQ_INT(voxel_template_get(&d->model, 0, 3, 5), BLOCK_SANDSTONE);
    CHECK_EQ_INT(voxel_template_get(&d->model, 5, 0, 5), BLOCK_STONE);
    CHECK_EQ_INT(voxel_template_get(&d->model, 5, 2, 0), VOXEL_TEMPLATE_KEEP);
    CHECK_EQ_INT(voxel_template_get(&d->model, 5, 3, 5), VOXEL_TEMPLATE_KEEP);
    /* placed as the generator's stations are: on its flat zone, the template's bottom at the zone height + 1 */
    Generator *g = seed_generator();
    if (!g) {
        station_manifest_free(&m);
        return;
    }
    TerrainChunk *c = chunk_create(0, 0);
    GenContext *ctx = gen_context_create();
    generator_generate_chunk(g, c, ctx);
    FlatZone zone;
    float height = g->calculate_height(g, 8.0f, 8.0f);
    station_flat_zone(d, 2, 3, height, 1, &zone);
    CHECK_NEAR(zone.width, 15.0, 1e-6);
    CHECK_NEAR(zone.depth, 14.0, 1e-6);
    int base = (int)floorf(zone.height) + 1 + d->y_offset, placed = 0;
    for (int y = 0; y < d->model.size[1] && base + y < 256; y++)
        for (int z = 0; z < d->model.size[2] && 3 + z < 16; z++)
            for (int x = 0; x < d->model.size[0] && 2 + x < 16; x++) {
                int b = voxel_template_get(&d->model, x, y, z);
                if (b == VOXEL_TEMPLATE_KEEP)
                    continue;
                chunk_set_cell(c, 2 + x, base + y, 3 + z, b);
                placed++;
            }
    CHECK(placed > 300);
    CHECK_EQ_INT(chunk_get_contents(c, 2 + 0, base + 3, 3 + 5), BLOCK_SANDSTONE);
    gen_context_destroy(ctx);
    chunk_destroy(c);
    generator_destroy(g);
    station_manifest_free(&m);
}

/* The game's two steps: the manifest checked before the world is known (models deferred), then its models
 * voxelized through the cache; the result is the manifest station_manifest_load_cached gives. */
static void test_stations_deferred(void)
{
    StationManifest m, full;
    CHECK_EQ_INT(station_manifest_load_deferred(SEEDS "004_stations.json", blocks, &m), ST_OK);
    CHECK(m.count == 2 && !strcmp(m.defs[0].type, "bank") && !strcmp(m.defs[1].type, "glb_house"));
    CHECK(m.defs[0].deferred && m.defs[0].model.voxels == NULL && m.defs[1].deferred);
    CHECK_EQ_INT(station_manifest_load_models(&m, SEEDS "004_stations.json", blocks, cache), ST_OK);
    CHECK_EQ_INT(station_manifest_load_cached(SEEDS "004_stations.json", blocks, cache, &full), ST_OK);
    for (int i = 0; i < 2 && m.count == 2 && full.count == 2; i++) {
        const VoxelTemplate *a = &m.defs[i].model, *b = &full.defs[i].model;
        CHECK(!m.defs[i].deferred && a->voxels && !memcmp(a->size, b->size, sizeof a->size));
        CHECK(m.defs[i].footprint[0] == full.defs[i].footprint[0] &&
              m.defs[i].footprint[1] == full.defs[i].footprint[1]);
        if (a->voxels && b->voxels)
            CHECK(!memcmp(a->voxels, b->voxels, sizeof *a->voxels * (size_t)a->size[0] * a->size[1] * a->size[2]));
    }
    station_manifest_free(&full);
    station_manifest_free(&m);
    /* a manifest of templates only: nothing deferred, the second step does nothing */
    CHECK_EQ_INT(station_manifest_load_deferred(STRATA_ASSET_DIR "/stations.json", blocks, &m), ST_OK);
    CHECK(m.count > 0 && !m.defs[0].deferred && m.defs[0].model.voxels != NULL);
    CHECK_EQ_INT(station_manifest_load_models(&m, STRATA_ASSET_DIR "/stations.json", blocks, NULL), ST_OK);
    station_manifest_free(&m);
    /* a model that is not there fails in the first step, naming the file and the field */
    char path[128];
    snprintf(path, sizeof path, "%s/missing.json", cache);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("{\"stations\": [{\"type\": \"ghost\", \"model\": \"ghost.glb\"}]}\n", f);
    fclose(f);
    CHECK_EQ_INT(station_manifest_load_deferred(path, blocks, &m), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "missing.json");
    CHECK_STR_CONTAINS(st_error_message(), "model");
}

int main(void)
{
    snprintf(cache, sizeof cache, "/tmp/strata_seeds_XXXXXX");
    if (!mkdtemp(cache))
        return 1;
    CHECK_EQ_INT(block_registry_load("assets/blocks.json", &blocks), ST_OK);
    RUN(test_tileset);
    RUN(test_scatter);
    RUN(test_chunk_config);
    RUN(test_stations);
    RUN(test_stations_deferred);
    block_registry_destroy(blocks);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", cache);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", cache);
    return check_report();
}
