/* strata-map — a top-down PNG of any rectangle of a world, without a window.
 *
 *   strata-map --seed S --rect X0,Z0,X1,Z1 --out PATH [--layer surface|height|temperature|humidity|mountain|caves|
 *              structures|biome] [--biomes PATH]
 *              [--y Y] [--mode continent|island|flat] [--biome-size F] [--temperature-offset F]
 *              [--humidity-offset F] [--island-size W,H] [--sea-level-offset N] [--flat-height N]
 *              [--worldgen PATH] [--blocks PATH] [--threads N] [--scale K]
 *
 * One pixel per block column, north (-Z) up, +X right; X1 and Z1 are exclusive. The surface and caves
 * layers generate the chunks covering the rectangle with the game's own generator (all four passes), one
 * GenContext per worker thread (C11 threads); the field layers sample the generator's functions.
 *
 * Design: a map of a rectangle equals, pixel for pixel, the same part of a map of any larger rectangle.
 * Chunk contents are pure, so the only risk is the relief shading, which compares a column's top with
 * its north-west neighbour's: the chunks generated include a one-column ring beyond the rectangle, so
 * that neighbour always comes from the generator, never from the image edge. Chunks are streamed into
 * a compact per-column record (top block, height, water depth, slice block), not kept whole.
 * The structures layer draws, over the surface map dimmed to half, the flat zones (core orange, blend band
 * yellow fading with the blend factor), settlement footprints (red outline, white plaza mark) and dungeon
 * footprints (magenta outline, cyan entrance mark), as the generator lists them (generator.h), and the
 * scatter objects (gen24 version 4: a 2 x 2 dot per tree, boulder, rock or template, coloured by type: oak dark
 * green, birch pale green, spruce teal, tall spruce blue-green, mimosa olive, poplar lime, boulders grey).
 * The biome layer colours each column by its biome (assets/biomes.json, --biomes): the colour of the biome's
 * first splat rule that holds at the column's height (flat), shaded by height, water blue over it. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include <stb_image_write.h>

#include "strata/biome.h"
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/error.h"
#include "strata/flags.h"
#include "strata/generator.h"
#include "strata/huge_pages.h"
#include "strata/update.h"
#include "strata/world_settings.h"

typedef enum MapLayer { LAYER_SURFACE, LAYER_HEIGHT, LAYER_TEMPERATURE, LAYER_HUMIDITY, LAYER_MOUNTAIN, LAYER_CAVES,
                       LAYER_STRUCTURES, LAYER_BIOME } MapLayer;

static const char *LAYER_NAMES[] = {"surface", "height", "temperature", "humidity", "mountain", "caves", "structures",
                                     "biome"};

#define MAP_MAX_COLUMNS (8192L * 8192L)

typedef struct Column {
    uint8_t top;         /* y of the topmost non-air cell */
    uint8_t depth;       /* water cells from the top down (0: dry) */
    uint16_t top_block;  /* topmost non-air block */
    uint16_t floor;      /* first non-water block under the water (top_block when dry) */
    uint16_t slice;      /* block at --y (caves layer) */
} Column;

typedef struct Map {
    const Generator *gen;
    const BlockRegistry *blocks;
    const BiomeSet *biomes;   /* biome layer */
    MapLayer layer;
    int slice_y;
    int x0, z0, x1, z1;   /* the rectangle */
    int bx0, bz0;         /* the ring-extended area: columns bx0..x1-1, bz0..z1-1 */
    int bw, bh;
    Column *columns;      /* bw * bh */
    int cx0, cz0, ccw, cch; /* chunks covering the extended area */
    atomic_int next;      /* next strip of chunks to generate */
    atomic_int failed;
    uint8_t *rgb;         /* the image, (x1-x0) * (z1-z0) * 3 */
} Map;

/* ---- command line (flags.h; the world setting flags come from the world settings table) ---- */

enum { MAP_SEED, MAP_RECT, MAP_OUT, MAP_LAYER, MAP_Y, MAP_WORLDGEN, MAP_BLOCKS, MAP_BIOMES, MAP_THREADS, MAP_SCALE, MAP_HELP,
       MAP_SETTING /* + index in WORLD_SETTINGS */ };

static const FlagSpec MAP_FLAGS[] = {
    {"--rect", FLAG_TEXT, 0, 0, "X0,Z0,X1,Z1", "the rectangle X0 <= x < X1, Z0 <= z < Z1 (required)", MAP_RECT},
    {"--out", FLAG_TEXT, 0, 0, "PATH", "the PNG to write (required)", MAP_OUT},
    {"--layer", FLAG_TEXT, 0, 0, "L", "surface (default) | height | temperature | humidity | mountain | caves | structures | biome",
     MAP_LAYER},
    {"--y", FLAG_INT, 0, 255, "Y", "the slice height of the caves layer, 0..255 (default 40)", MAP_Y},
    {"--worldgen", FLAG_TEXT, 0, 0, "PATH", "generator tunables (default assets/worldgen.json)", MAP_WORLDGEN},
    {"--blocks", FLAG_TEXT, 0, 0, "PATH", "block registry (default assets/blocks.json)", MAP_BLOCKS},
    {"--biomes", FLAG_TEXT, 0, 0, "PATH", "biomes of the biome layer (default assets/biomes.json)", MAP_BIOMES},
    {"--threads", FLAG_INT, 1, 64, "N", "worker threads, 1..64 (default: cores - 1, at least 1)", MAP_THREADS},
    {"--scale", FLAG_INT, 1, 16, "K", "write each pixel as a KxK block (1..16, default 1), for close-ups", MAP_SCALE},
    {"--help", FLAG_HELP, 0, 0, NULL, "this text", MAP_HELP},
};
#define MAP_FLAG_COUNT ((int)(sizeof MAP_FLAGS / sizeof MAP_FLAGS[0]))
#define MAP_FLAG_MAX (MAP_FLAG_COUNT + 24)

/* The world setting flags (seed first) followed by the map's own. Returns the count. */
static int map_flags(FlagSpec out[MAP_FLAG_MAX])
{
    int n = 0;
    for (int i = 0; i < WORLD_SETTING_COUNT && n < MAP_FLAG_MAX - MAP_FLAG_COUNT; i++)
        if (WORLD_SETTINGS[i].flag) out[n++] = world_settings_flag_spec(&WORLD_SETTINGS[i], MAP_SETTING + i);
    for (int i = 0; i < MAP_FLAG_COUNT; i++)
        out[n++] = MAP_FLAGS[i];
    return n;
}

static void usage(FILE *f)
{
    fputs("usage: strata-map --seed S --rect X0,Z0,X1,Z1 --out PATH [options]\n"
          "  Writes a top-down PNG of the world rectangle X0 <= x < X1, Z0 <= z < Z1: one pixel per block\n"
          "  column, north (-Z) up, +X right.\n"
          "options:\n",
          f);
    FlagSpec flags[MAP_FLAG_MAX];
    int n = map_flags(flags);
    flags_print_table(f, flags, n, 26);
}

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "strata-map: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(strata-map --help for usage)\n");
    return 2;
}

typedef struct MapOptions {
    WorldSettings settings;
    bool seed_given;
    const char *rect_text, *out, *worldgen, *blocks_path, *biomes_path;
    MapLayer layer;
    int slice_y, threads, scale;
} MapOptions;

static StResult map_apply(void *user, const FlagSpec *f, const FlagValue *value)
{
    MapOptions *o = user;
    if (f->id >= MAP_SETTING) {
        const WorldSettingSpec *w = &WORLD_SETTINGS[f->id - MAP_SETTING];
        StResult rc = world_settings_apply_flag(w, value->text, &o->settings);
        if (rc == ST_OK && w->type == WORLD_SETTING_SEED) o->seed_given = true;
        return rc;
    }
    switch (f->id) {
    case MAP_RECT: o->rect_text = value->text; break;
    case MAP_OUT: o->out = value->text; break;
    case MAP_WORLDGEN: o->worldgen = value->text; break;
    case MAP_BLOCKS: o->blocks_path = value->text; break;
    case MAP_BIOMES: o->biomes_path = value->text; break;
    case MAP_Y: o->slice_y = (int)value->integer; break;
    case MAP_THREADS: o->threads = (int)value->integer; break;
    case MAP_SCALE: o->scale = (int)value->integer; break;
    case MAP_LAYER: {
        int found = -1;
        for (int k = 0; k < (int)(sizeof LAYER_NAMES / sizeof LAYER_NAMES[0]); k++)
            if (strcmp(value->text, LAYER_NAMES[k]) == 0) found = k;
        if (found < 0)
            return st_fail(ST_ERR_ARG,
                           "--layer: expected surface|height|temperature|humidity|mountain|caves|structures|biome, got '%s'",
                           value->text);
        o->layer = (MapLayer)found;
        break;
    }
    default: break;
    }
    return ST_OK;
}

/* ---- chunk layers ---- */

static Column read_column(const TerrainChunk *c, int x, int z, int slice_y)
{
    Column col = {0, 0, 0, 0, 0};
    const int32_t *cells = cell_view_const_column(chunk_cell_view_const(c), x, z);
    int y = 255;
    while (y > 0 && cell_contents(cells[y]) == BLOCK_AIR)
        y--;
    col.top = (uint8_t)y;
    col.top_block = (uint16_t)cell_contents(cells[y]);
    int d = y;
    while (d > 0 && cell_contents(cells[d]) == BLOCK_WATER)
        d--;
    col.depth = (uint8_t)(y - d);
    col.floor = (uint16_t)cell_contents(cells[d]);
    col.slice = (uint16_t)cell_contents(cells[slice_y]);
    return col;
}

static int map_worker(void *arg)
{
    Map *m = arg;
    GenContext *ctx = gen_context_create();
    TerrainChunk *chunk = chunk_create(0, 0);
    if (!ctx || !chunk) {
        atomic_store(&m->failed, 1);
        gen_context_destroy(ctx);
        chunk_destroy(chunk);
        return 1;
    }
    /* strips of 4 chunks along x keep a worker's chunks adjacent (its cave and tree caches hit) */
    int strips_per_row = (m->ccw + 3) / 4;
    int total = strips_per_row * m->cch;
    for (;;) {
        int s = atomic_fetch_add(&m->next, 1);
        if (s >= total)
            break;
        int row = s / strips_per_row, first = (s % strips_per_row) * 4;
        for (int k = first; k < first + 4 && k < m->ccw; k++) {
            int cx = m->cx0 + k, cz = m->cz0 + row;
            chunk->worker_geometry = NULL;
            chunk->worker_finished_mesh = NULL;
            chunk_reset(chunk, cx, cz);
            generator_generate_chunk(m->gen, chunk, ctx);
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) {
                    int wx = cx * 16 + x, wz = cz * 16 + z;
                    if (wx < m->bx0 || wx >= m->x1 || wz < m->bz0 || wz >= m->z1)
                        continue;
                    m->columns[(size_t)(wz - m->bz0) * (size_t)m->bw + (size_t)(wx - m->bx0)] =
                        read_column(chunk, x, z, m->slice_y);
                }
        }
    }
    chunk_destroy(chunk);
    gen_context_destroy(ctx);
    return 0;
}

static const Column *column_at(const Map *m, int wx, int wz)
{
    return &m->columns[(size_t)(wz - m->bz0) * (size_t)m->bw + (size_t)(wx - m->bx0)];
}

static void put(uint8_t *p, float r, float g, float b)
{
    float c[3] = {r, g, b};
    for (int i = 0; i < 3; i++)
        p[i] = (uint8_t)(c[i] < 0.0f ? 0 : (c[i] > 255.0f ? 255 : lrintf(c[i])));
}

static void surface_pixel(const Map *m, int wx, int wz, uint8_t *p)
{
    const Column *c = column_at(m, wx, wz);
    const uint8_t *top = m->blocks->defs[c->top_block].map_color;
    if (c->depth > 0) {
        const uint8_t *floor = m->blocks->defs[c->floor].map_color;
        float t = 0.35f + 0.6f * (float)(c->depth < 24 ? c->depth : 24) / 24.0f;
        put(p, floor[0] + (top[0] - floor[0]) * t, floor[1] + (top[1] - floor[1]) * t,
            floor[2] + (top[2] - floor[2]) * t);
        return;
    }
    /* relief: light from the north-west; brighter with altitude */
    const Column *nw = column_at(m, wx - 1, wz - 1);
    float dh = (float)c->top - (float)nw->top;
    float shade = 1.0f + (dh > 3.0f ? 3.0f : (dh < -3.0f ? -3.0f : dh)) * 0.09f;
    shade *= 0.88f + 0.24f * ((float)c->top - 64.0f) / 128.0f;
    put(p, top[0] * shade, top[1] * shade, top[2] * shade);
}

static void caves_pixel(const Map *m, int wx, int wz, uint8_t *p)
{
    const Column *c = column_at(m, wx, wz);
    int b = c->slice;
    if (b == BLOCK_AIR) {
        if (m->slice_y > c->top) put(p, 40, 48, 70);        /* open sky */
        else put(p, 255, 226, 120);                          /* cave */
        return;
    }
    const uint8_t *col = m->blocks->defs[b].map_color;
    if (b == BLOCK_WATER || b == BLOCK_MAGMA) {
        put(p, col[0], col[1], col[2]);
        return;
    }
    bool ore = b >= BLOCK_COAL_ORE && b <= BLOCK_GERMANIUM_ORE;
    float k = ore ? 1.0f : 0.45f;
    put(p, col[0] * k, col[1] * k, col[2] * k);
}

/* ---- field layers ---- */

static void ramp(uint8_t *p, float t, const float (*stops)[3], int n)
{
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    float f = t * (float)(n - 1);
    int i = (int)f;
    if (i >= n - 1) i = n - 2;
    float u = f - (float)i;
    put(p, stops[i][0] + (stops[i + 1][0] - stops[i][0]) * u, stops[i][1] + (stops[i + 1][1] - stops[i][1]) * u,
        stops[i][2] + (stops[i + 1][2] - stops[i][2]) * u);
}

static void field_pixel(const Map *m, int wx, int wz, uint8_t *p)
{
    const Generator *g = m->gen;
    float x = (float)wx, z = (float)wz;
    switch (m->layer) {
    case LAYER_HEIGHT: {
        float h = g->calculate_height(g, x, z);
        float sea = (float)g->ocean_level(g);
        if (h <= sea) {
            static const float water[][3] = {{10, 20, 70}, {40, 90, 170}};
            ramp(p, (h - (sea - 50.0f)) / 50.0f, water, 2);
        } else {
            static const float land[][3] = {{70, 140, 60}, {150, 170, 80}, {140, 110, 70}, {250, 250, 250}};
            ramp(p, (h - sea) / 130.0f, land, 4);
        }
        break;
    }
    case LAYER_TEMPERATURE: {
        static const float t[][3] = {{40, 60, 200}, {80, 200, 230}, {240, 230, 90}, {220, 50, 30}};
        ramp(p, (float)g->calculate_temperature(g, x, z) / 15.0f, t, 4);
        break;
    }
    case LAYER_BIOME: {
        float h = g->calculate_height(g, x, z);
        float sea = (float)g->ocean_level(g);
        int b = biome_set_classify(m->biomes, g->calculate_temperature(g, x, z), g->calculate_humidity(g, x, z), h);
        const BiomeSplatRule *r = biome_set_splat_rule(m->biomes, b, h, 0.0f);
        float c[3] = {0.5f, 0.5f, 0.5f};
        if (r && r->has_color) memcpy(c, r->color, sizeof c);
        float shade = 0.75f + 0.35f * (h - sea) / 120.0f;
        if (h <= sea) { /* water over the biome, deeper darker */
            float d = (sea - h) / 40.0f;
            d = d > 1.0f ? 1.0f : d;
            for (int k = 0; k < 3; k++) c[k] = c[k] * (0.45f - 0.25f * d);
            c[2] += 0.35f + 0.2f * (1.0f - d);
            shade = 1.0f;
        }
        put(p, 255.0f * fminf(1.0f, c[0] * shade), 255.0f * fminf(1.0f, c[1] * shade), 255.0f * fminf(1.0f, c[2] * shade));
        break;
    }
    case LAYER_HUMIDITY: {
        static const float h[][3] = {{190, 150, 80}, {120, 190, 80}, {30, 90, 200}};
        ramp(p, (float)g->calculate_humidity(g, x, z) / 15.0f, h, 3);
        break;
    }
    default: {
        static const float k[][3] = {{0, 0, 0}, {255, 255, 255}};
        ramp(p, g->calculate_mountain_range_factor(g, x, z), k, 2);
        break;
    }
    }
}

typedef struct PixelJob { Map *m; atomic_int next; } PixelJob;

static int pixel_worker(void *arg)
{
    PixelJob *job = arg;
    Map *m = job->m;
    int w = m->x1 - m->x0, h = m->z1 - m->z0;
    for (;;) {
        int row = atomic_fetch_add(&job->next, 1);
        if (row >= h)
            break;
        for (int i = 0; i < w; i++) {
            uint8_t *p = &m->rgb[((size_t)row * (size_t)w + (size_t)i) * 3];
            int wx = m->x0 + i, wz = m->z0 + row;
            if (m->layer == LAYER_STRUCTURES) {
                surface_pixel(m, wx, wz, p);
                for (int c = 0; c < 3; c++) p[c] = (uint8_t)(p[c] / 2 + 20);
            } else if (m->layer == LAYER_SURFACE) surface_pixel(m, wx, wz, p);
            else if (m->layer == LAYER_CAVES) caves_pixel(m, wx, wz, p);
            else field_pixel(m, wx, wz, p);
        }
    }
    return 0;
}

/* ---- structures overlay ---- */

#define MAP_STRUCT_MAX 4096

static void blend_px(Map *m, int wx, int wz, const uint8_t c[3], float a)
{
    if (wx < m->x0 || wx >= m->x1 || wz < m->z0 || wz >= m->z1) return;
    uint8_t *p = &m->rgb[((size_t)(wz - m->z0) * (size_t)(m->x1 - m->x0) + (size_t)(wx - m->x0)) * 3];
    for (int k = 0; k < 3; k++) p[k] = (uint8_t)lroundf(p[k] + (c[k] - p[k]) * a);
}

static void outline(Map *m, int x0, int z0, int x1, int z1, const uint8_t c[3])
{
    for (int x = x0; x <= x1; x++) {
        blend_px(m, x, z0, c, 1.0f);
        blend_px(m, x, z1, c, 1.0f);
    }
    for (int z = z0; z <= z1; z++) {
        blend_px(m, x0, z, c, 1.0f);
        blend_px(m, x1, z, c, 1.0f);
    }
}

static void mark(Map *m, int x, int z, const uint8_t c[3])
{
    for (int d = -3; d <= 3; d++) {
        blend_px(m, x + d, z, c, 1.0f);
        blend_px(m, x, z + d, c, 1.0f);
    }
}

/* The scatter objects (generator_list_scatter): a dot per object, coloured by its type. */
static void scatter_colour(const GeneratorScatterPoint *p, uint8_t c[3])
{
    static const struct { const char *name; uint8_t c[3]; } trees[] = {
        {"oak", {20, 110, 20}}, {"birch", {150, 230, 120}}, {"spruce", {0, 90, 80}},
        {"tall_spruce", {0, 60, 110}}, {"mimosa", {170, 160, 30}}, {"poplar", {90, 200, 40}},
    };
    static const uint8_t kinds[5][3] = {{40, 160, 40}, {240, 120, 200}, {120, 120, 120}, {200, 200, 200}, {150, 90, 40}};
    memcpy(c, kinds[p->kind >= 0 && p->kind < 5 ? p->kind : 1], 3);
    for (size_t i = 0; p->kind == 0 && i < sizeof trees / sizeof trees[0]; i++)
        if (strcmp(p->name, trees[i].name) == 0)
            memcpy(c, trees[i].c, 3);
}

static int scatter_overlay(Map *m)
{
    int n = generator_list_scatter(m->gen, m->x0, m->z0, m->x1, m->z1, NULL, 0);
    if (n <= 0)
        return n;
    GeneratorScatterPoint *pts = malloc(sizeof *pts * (size_t)n);
    if (!pts)
        return -1;
    n = generator_list_scatter(m->gen, m->x0, m->z0, m->x1, m->z1, pts, n);
    for (int i = 0; i < n; i++) {
        uint8_t c[3];
        scatter_colour(&pts[i], c);
        blend_px(m, pts[i].x, pts[i].z, c, 1.0f);
        blend_px(m, pts[i].x + 1, pts[i].z, c, 1.0f);
        blend_px(m, pts[i].x, pts[i].z + 1, c, 1.0f);
        blend_px(m, pts[i].x + 1, pts[i].z + 1, c, 1.0f);
    }
    free(pts);
    return n;
}

static int structures_overlay(Map *m)
{
    static const uint8_t core[3] = {255, 140, 0}, band[3] = {255, 230, 60}, settle[3] = {230, 30, 30},
                         plaza[3] = {255, 255, 255}, dungeon[3] = {230, 40, 230}, entrance[3] = {40, 230, 230};
    int cx = (int)(((long)m->x0 + m->x1) / 2), cz = (int)(((long)m->z0 + m->z1) / 2);
    double hw = (m->x1 - m->x0) / 2.0, hh = (m->z1 - m->z0) / 2.0;
    int radius = (int)ceil(sqrt(hw * hw + hh * hh)) + 512;
    FlatZone *zones = malloc(MAP_STRUCT_MAX * sizeof *zones);
    GeneratorStructure *list = malloc(MAP_STRUCT_MAX * sizeof *list);
    if (!zones || !list) {
        free(zones);
        free(list);
        return 1;
    }
    int nz = generator_list_flat_zones(m->gen, cx, cz, radius, zones, MAP_STRUCT_MAX);
    for (int i = 0; i < nz; i++) {
        float fx0, fx1, fz0, fz1;
        flat_zone_bounds(&zones[i], &fx0, &fx1, &fz0, &fz1);
        for (int z = (int)floorf(fz0); z <= (int)ceilf(fz1); z++)
            for (int x = (int)floorf(fx0); x <= (int)ceilf(fx1); x++) {
                float t = flat_zone_blend(&zones[i], x + 0.5f, z + 0.5f);
                if (t <= 0.0f) blend_px(m, x, z, core, 0.6f);
                else if (t < 1.0f) blend_px(m, x, z, band, 0.5f * (1.0f - t) + 0.1f);
            }
    }
    int ns = generator_list_structures(m->gen, cx, cz, radius, list, MAP_STRUCT_MAX);
    for (int i = 0; i < ns; i++) {
        const GeneratorStructure *g = &list[i];
        bool s = g->type == GEN_STRUCTURE_SETTLEMENT;
        outline(m, g->min_x, g->min_z, g->max_x, g->max_z, s ? settle : dungeon);
        mark(m, g->x, g->z, s ? plaza : entrance);
    }
    int np = scatter_overlay(m);
    if (np < 0) {
        free(zones);
        free(list);
        return 1;
    }
    fprintf(stderr, "strata-map: structures layer: %d flat zones, %d structures near the rectangle, %d scatter objects\n",
            nz, ns, np);
    free(zones);
    free(list);
    return 0;
}

typedef int (*MapWorkerFn)(void *arg);
typedef struct WorkerStart {
    MapWorkerFn fn;
    void *arg;
    int result;
} WorkerStart;

static void *worker_start(void *p)
{
    WorkerStart *w = p;
    w->result = w->fn(w->arg);
    return NULL;
}

/* pthreads rather than C11 threads: ThreadSanitizer does not intercept thrd_create. */
static int run_workers(int threads, MapWorkerFn fn, void *arg)
{
    pthread_t t[64];
    WorkerStart starts[64];
    int started = 0;
    for (int i = 1; i < threads && started < 64; i++) {
        starts[started] = (WorkerStart){fn, arg, 0};
        if (pthread_create(&t[started], NULL, worker_start, &starts[started]) != 0)
            break;
        started++;
    }
    int rc = fn(arg);
    for (int i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
        if (starts[i].result) rc = starts[i].result;
    }
    return rc;
}

/* Nearest-neighbour enlargement; frees `rgb`, returns the new image (NULL when out of memory). */
static uint8_t *upscale(uint8_t *rgb, int w, int h, int k)
{
    uint8_t *big = malloc((size_t)w * (size_t)h * (size_t)k * (size_t)k * 3);
    if (big) {
        for (int y = 0; y < h * k; y++)
            for (int x = 0; x < w * k; x++)
                memcpy(&big[((size_t)y * (size_t)(w * k) + (size_t)x) * 3],
                       &rgb[((size_t)(y / k) * (size_t)w + (size_t)(x / k)) * 3], 3);
    }
    free(rgb);
    return big;
}

int main(int argc, char **argv)
{
    process_prefer_huge_pages(argv); /* as the game runs: malloc on huge pages (may start this binary again) */
    MapOptions o = {.worldgen = STRATA_ASSET_DIR "/worldgen.json", .blocks_path = STRATA_ASSET_DIR "/blocks.json",
                    .layer = LAYER_SURFACE, .slice_y = 40, .threads = 0, .scale = 1};
    world_settings_default(&o.settings);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
    FlagSpec flags[MAP_FLAG_MAX];
    int flag_count = map_flags(flags);
    FlagsStatus status_flags = flags_parse(flags, flag_count, argc, argv, map_apply, &o);
    if (status_flags == FLAGS_ERROR) return bad_usage("%s", st_error_message());
    if (status_flags == FLAGS_HELP) {
        usage(stdout);
        return 0;
    }
    if (o.settings.mode == TERRAIN_MODE_HEIGHTMAP && !o.settings.heightmap[0])
        return bad_usage("%s", "--mode heightmap needs --heightmap FILE");
    if (!o.seed_given) return bad_usage("%s", "missing --seed");
    if (!o.rect_text) return bad_usage("%s", "missing --rect");
    if (!o.out) return bad_usage("%s", "missing --out");
    WorldSettings settings = o.settings;
    const char *rect_text = o.rect_text, *out = o.out, *worldgen = o.worldgen, *blocks_path = o.blocks_path;
    MapLayer layer = o.layer;
    int slice_y = o.slice_y, threads = o.threads > 0 ? o.threads : updater_default_threads(), scale = o.scale;
    Map m;
    memset(&m, 0, sizeof m);
    char tail;
    if (sscanf(rect_text, "%d,%d,%d,%d%c", &m.x0, &m.z0, &m.x1, &m.z1, &tail) != 4)
        return bad_usage("--rect: expected X0,Z0,X1,Z1 (integers), got '%s'", rect_text);
    if (m.x1 <= m.x0 || m.z1 <= m.z0)
        return bad_usage("--rect: expected X1 > X0 and Z1 > Z0 (X1, Z1 exclusive), got '%s'", rect_text);
    long w = (long)m.x1 - m.x0, h = (long)m.z1 - m.z0;
    if (w * h > MAP_MAX_COLUMNS)
        return bad_usage("--rect: at most 8192x8192 columns, got '%s'", rect_text);
    if (w * h * scale * scale > MAP_MAX_COLUMNS)
        return bad_usage("--scale: the enlarged image would exceed 8192x8192 pixels (%s)", "reduce --scale or the rect");

    BlockRegistry *blocks = NULL;
    Generator *gen = NULL;
    if (block_registry_load(blocks_path, &blocks) != ST_OK) {
        fprintf(stderr, "strata-map: %s\n", st_error_message());
        return 1;
    }
    StResult rc = generator_create(&settings, blocks, worldgen, &gen);
    if (rc != ST_OK) {
        fprintf(stderr, "strata-map: %s\n", st_error_message());
        block_registry_destroy(blocks);
        return rc == ST_ERR_ARG ? 2 : 1;
    }
    m.gen = gen;
    m.blocks = blocks;
    BiomeSet *biomes = NULL;
    if (layer == LAYER_BIOME &&
        biome_set_load(o.biomes_path ? o.biomes_path : STRATA_ASSET_DIR "/biomes.json", blocks, &biomes) != ST_OK) {
        fprintf(stderr, "strata-map: %s\n", st_error_message());
        generator_destroy(gen);
        block_registry_destroy(blocks);
        return 1;
    }
    m.biomes = biomes;
    m.layer = layer;
    m.slice_y = slice_y;
    m.rgb = malloc((size_t)w * (size_t)h * 3);
    int status = 0;
    if (!m.rgb) {
        fprintf(stderr, "strata-map: out of memory for a %ldx%ld image\n", w, h);
        status = 1;
    }
    if (!status && (layer == LAYER_SURFACE || layer == LAYER_CAVES || layer == LAYER_STRUCTURES)) {
        m.bx0 = m.x0 - 1;
        m.bz0 = m.z0 - 1;
        m.bw = m.x1 - m.bx0;
        m.bh = m.z1 - m.bz0;
        m.columns = calloc((size_t)m.bw * (size_t)m.bh, sizeof *m.columns);
        m.cx0 = chunk_coord_of(m.bx0);
        m.cz0 = chunk_coord_of(m.bz0);
        m.ccw = chunk_coord_of(m.x1 - 1) - m.cx0 + 1;
        m.cch = chunk_coord_of(m.z1 - 1) - m.cz0 + 1;
        atomic_init(&m.next, 0);
        atomic_init(&m.failed, 0);
        if (!m.columns) {
            fprintf(stderr, "strata-map: out of memory for %dx%d columns\n", m.bw, m.bh);
            status = 1;
        } else {
            int use = threads;
            if ((long)m.ccw * m.cch < 8) use = 1;
            run_workers(use, map_worker, &m);
            if (atomic_load(&m.failed)) {
                fprintf(stderr, "strata-map: out of memory while generating\n");
                status = 1;
            }
        }
    }
    if (!status) {
        PixelJob job;
        job.m = &m;
        atomic_init(&job.next, 0);
        run_workers(threads, pixel_worker, &job);
        if (layer == LAYER_STRUCTURES && structures_overlay(&m)) {
            fprintf(stderr, "strata-map: out of memory for the structures layer\n");
            status = 1;
        }
        if (scale > 1 && !(m.rgb = upscale(m.rgb, (int)w, (int)h, scale))) {
            fprintf(stderr, "strata-map: out of memory for a x%d image\n", scale);
            status = 1;
        } else if (!stbi_write_png(out, (int)w * scale, (int)h * scale, 3, m.rgb, (int)w * scale * 3)) {
            fprintf(stderr, "strata-map: cannot write %s\n", out);
            status = 1;
        }
    }
    free(m.columns);
    free(m.rgb);
    biome_set_destroy(biomes);
    generator_destroy(gen);
    block_registry_destroy(blocks);
    return status;
}
