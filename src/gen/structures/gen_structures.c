/* gen_structures.c — settlements and dungeons in generation (gen_structures.h).
 *
 * Design: a site is a pure function of (seed, region): a settlement candidate at a seeded point, kept when
 * the procedural height there and at 8 points around is dry (above the sea by 3) and level (spread <= 10);
 * its stations (3..5 from assets/stations.json) sit on a ring around a round plaza, each on its own flat
 * zone (template footprint + padding, the manifest's blend radius, the height sampled at its centre). A
 * dungeon candidate sits deep under another seeded point: a WFC grid of 6..10 x 1..3 x 6..10 tiles of
 * assets/tilesets/dungeon.json whose top-layer entrance cell is constrained to a dead end; a spiral shaft
 * climbs from it to a small round flat zone on the surface. Sites keep GEN_SITE_MARGIN from their region's
 * edges so that a chunk consults only its own region. Painting is per cell from the site alone (templates
 * replace cells; KEEP leaves them), so generation order never matters. */
#include "gen_structures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_feature.h"
#include "strata/config.h"
#include "strata/rng.h"
#include "strata/station.h"
#include "strata/voxel_model.h"
#include "strata/voxel_template.h"
#include "strata/wfc.h"

#include <cjson/cJSON.h>

#define GEN_SITE_MARGIN 64
#define TL_SITES 32


struct GenStructures {
    uint64_t seed, key;
    int ocean;
    GenProceduralHeightFn height;
    const void *gen;
    WfcTileset *tileset;
    StationManifest manifest;
};

/* ---- loading ---- */

void gen_structures_destroy(GenStructures *s)
{
    if (!s)
        return;
    station_manifest_free(&s->manifest);
    wfc_tileset_destroy(s->tileset);
    free(s);
}

StResult gen_structures_create(const BlockRegistry *blocks, uint64_t seed, uint64_t key, int ocean_level,
                               GenProceduralHeightFn height, const void *gen, GenStructures **out)
{
    GenStructures *s = calloc(1, sizeof *s);
    if (!s)
        return st_fail(ST_ERR_NOMEM, "structures: out of memory");
    s->seed = rng_derive(seed, "structures");
    s->key = key;
    s->ocean = ocean_level;
    s->height = height;
    s->gen = gen;
    char cache[1024];   /* models (none in the shipped assets) are voxelized through the user's cache */
    voxel_model_cache_dir(NULL, false, cache, sizeof cache);
    StResult rc = wfc_tileset_load(STRATA_ASSET_DIR "/tilesets/dungeon.json", &s->tileset);
    if (rc == ST_OK)
        rc = wfc_tileset_load_templates_cached(s->tileset, blocks, cache);
    if (rc == ST_OK)
        rc = station_manifest_load_cached(STRATA_ASSET_DIR "/stations.json", blocks, cache, &s->manifest);
    if (rc == ST_OK && s->manifest.count == 0)
        rc = st_fail(ST_ERR_FORMAT, "assets/stations.json: no stations");
    if (rc != ST_OK) {
        gen_structures_destroy(s);
        return rc;
    }
    *out = s;
    return ST_OK;
}

/* ---- sites ---- */

static float proc_h(const GenStructures *s, float x, float z) { return s->height(s->gen, x, z); }

static void add_zone(GenSite *site, const FlatZone *z)
{
    if (site->zone_count >= GEN_SITE_MAX_ZONES)
        return;
    site->zones[site->zone_count++] = *z;
    float a, b, c, d;
    flat_zone_bounds(z, &a, &b, &c, &d);
    int x0 = (int)floorf(a), x1 = (int)ceilf(b), z0 = (int)floorf(c), z1 = (int)ceilf(d);
    if (site->zone_count == 1 || x0 < site->min_x) site->min_x = x0;
    if (site->zone_count == 1 || x1 > site->max_x) site->max_x = x1;
    if (site->zone_count == 1 || z0 < site->min_z) site->min_z = z0;
    if (site->zone_count == 1 || z1 > site->max_z) site->max_z = z1;
}

static void derive_settlement(const GenStructures *s, GenSite *site, Rng *rng, int ox, int oz)
{
    const int span = GEN_SITE_REGION - 2 * GEN_SITE_MARGIN;
    int cx = ox + GEN_SITE_MARGIN + rng_int_range(rng, 0, span - 1);
    int cz = oz + GEN_SITE_MARGIN + rng_int_range(rng, 0, span - 1);
    if (!rng_bool(rng, 0.7f))
        return;
    float h0 = proc_h(s, (float)cx, (float)cz), lo = h0, hi = h0;
    for (int k = 0; k < 8; k++) {
        float a = (float)k * 0.785398f;
        float h = proc_h(s, (float)cx + 24.0f * cosf(a), (float)cz + 24.0f * sinf(a));
        lo = fminf(lo, h);
        hi = fmaxf(hi, h);
    }
    if (lo < (float)s->ocean + 3.0f || hi - lo > 10.0f || h0 > 200.0f)
        return; /* water or steep ground */
    site->settlement = true;
    site->center_x = cx;
    site->center_z = cz;
    site->center_y = (int)floorf(h0);
    FlatZone plaza = {.id = 1, .center_x = (float)cx + 0.5f, .center_z = (float)cz + 0.5f, .width = 14,
                      .height = (float)site->center_y, .blend_radius = 6, .shape = FLAT_ZONE_CIRCLE};
    add_zone(site, &plaza);
    int n = rng_int_range(rng, 3, 5);
    float base = rng_float(rng) * 6.2831853f;
    for (int i = 0; i < n; i++) {
        const StationDef *d = &s->manifest.defs[i == 0 ? 0 : rng_int_range(rng, 0, s->manifest.count - 1)];
        float a = base + (float)i * 6.2831853f / (float)n;
        int sx = cx + (int)lroundf(19.0f * cosf(a)), sz = cz + (int)lroundf(19.0f * sinf(a));
        int fx = d->footprint[0], fz = d->footprint[1];
        int x0 = sx - fx / 2, z0 = sz - fz / 2;
        float hc = floorf(proc_h(s, (float)x0 + fx * 0.5f, (float)z0 + fz * 0.5f));
        if (d->flatten) {
            FlatZone z = {.id = (uint32_t)(2 + i), .center_x = (float)x0 + fx * 0.5f, .center_z = (float)z0 + fz * 0.5f,
                          .width = (float)fx + 2 * d->padding, .depth = (float)fz + 2 * d->padding, .height = hc,
                          .blend_radius = d->blend};
            add_zone(site, &z);
        }
        GenStation *st = &site->stations[site->station_count++];
        st->type = (int)(d - s->manifest.defs);
        st->x = x0;
        st->z = z0;
        st->y = (int)hc + 1 + d->y_offset;
    }
}

static void derive_dungeon(const GenStructures *s, GenSite *site, Rng *rng, int ox, int oz)
{
    const WfcTileset *ts = s->tileset;
    int gsx = rng_int_range(rng, 6, 10), gsy = rng_int_range(rng, 1, 3), gsz = rng_int_range(rng, 6, 10);
    int w = gsx * ts->tile_size[0], d = gsz * ts->tile_size[2];
    int dx = ox + GEN_SITE_MARGIN + rng_int_range(rng, 0, GEN_SITE_REGION - 2 * GEN_SITE_MARGIN - w);
    int dz = oz + GEN_SITE_MARGIN + rng_int_range(rng, 0, GEN_SITE_REGION - 2 * GEN_SITE_MARGIN - d);
    int ecx = rng_int_range(rng, 0, gsx - 1), ecz = rng_int_range(rng, 0, gsz - 1);
    if (!rng_bool(rng, 0.7f))
        return;
    int ex = dx + ecx * ts->tile_size[0] + ts->tile_size[0] / 2, ez = dz + ecz * ts->tile_size[2] + ts->tile_size[2] / 2;
    /* keep clear of the settlement's zones */
    if (site->settlement && ex > site->min_x - 16 && ex < site->max_x + 16 && ez > site->min_z - 16 &&
        ez < site->max_z + 16)
        return;
    float lo = INFINITY;
    for (int k = 0; k < 9; k++)
        lo = fminf(lo, proc_h(s, (float)(dx + (k % 3) * w / 2), (float)(dz + (k / 3) * d / 2)));
    int eh = (int)floorf(proc_h(s, (float)ex + 0.5f, (float)ez + 0.5f));
    if (eh < s->ocean + 3 || eh > 220)
        return;
    int top = (int)floorf(fminf(lo, (float)eh)) - 14; /* the top of the dungeon, under the lowest ground */
    int dy = top - gsy * ts->tile_size[1];
    while (dy < 8 && gsy > 1) {
        gsy--;
        dy = top - gsy * ts->tile_size[1];
    }
    if (dy < 8)
        return;
    site->dungeon = true;
    site->dx = dx;
    site->dy = dy;
    site->dz = dz;
    site->gsx = gsx;
    site->gsy = gsy;
    site->gsz = gsz;
    site->ecx = ecx;
    site->ecz = ecz;
    site->entrance_x = ex;
    site->entrance_z = ez;
    site->entrance_y = eh;
    FlatZone z = {.id = 100, .center_x = (float)ex + 0.5f, .center_z = (float)ez + 0.5f, .width = 9,
                  .height = (float)eh, .blend_radius = 5, .shape = FLAT_ZONE_CIRCLE};
    add_zone(site, &z);
}

static void derive_site(const GenStructures *s, int rx, int rz, GenSite *site)
{
    memset(site, 0, sizeof *site);
    site->rx = rx;
    site->rz = rz;
    Rng rng;
    rng_init(&rng, rng_hash2(s->seed, rx, rz));
    int ox = rx * GEN_SITE_REGION, oz = rz * GEN_SITE_REGION;
    derive_settlement(s, site, &rng, ox, oz);
    rng_init(&rng, rng_hash2(s->seed ^ 0xD06E0Aull, rx, rz));
    derive_dungeon(s, site, &rng, ox, oz);
}

static _Thread_local struct {
    uint64_t tag;
    GenSite site;
} tl_sites[TL_SITES];

const GenSite *gen_structures_site(const GenStructures *s, int rx, int rz, GenSite *scratch)
{
    (void)scratch;
    uint64_t tag = rng_hash2(s->key, rx, rz) | 1;
    unsigned slot = (unsigned)(tag >> 40) % TL_SITES;
    if (tl_sites[slot].tag != tag || tl_sites[slot].site.rx != rx || tl_sites[slot].site.rz != rz) {
        derive_site(s, rx, rz, &tl_sites[slot].site);
        tl_sites[slot].tag = tag;
    }
    return &tl_sites[slot].site;
}

static int region_of(int v) { return (int)floor((double)v / GEN_SITE_REGION); }

static const FlatZone *site_zone_at(const GenSite *site, float x, float z, float *t_out)
{
    const FlatZone *best = NULL;
    float bt = 1.0f;
    for (int i = 0; i < site->zone_count; i++) {
        float t = flat_zone_blend(&site->zones[i], x, z);
        if (t < 1.0f && (!best || flat_zone_wins(&site->zones[i], t, best, bt))) {
            best = &site->zones[i];
            bt = t;
        }
    }
    *t_out = bt;
    return best;
}

float gen_structures_height(const GenStructures *s, float x, float z, float procedural)
{
    GenSite scratch;
    const GenSite *site = gen_structures_site(s, region_of((int)floorf(x)), region_of((int)floorf(z)), &scratch);
    float t;
    const FlatZone *zone = site_zone_at(site, x, z, &t);
    return zone ? flat_zone_mix(zone, t, procedural) : procedural;
}

void gen_structures_flatten_column(const GenSite *site, int wx, int wz, float *density)
{
    if (site->zone_count == 0 || wx < site->min_x || wx > site->max_x || wz < site->min_z || wz > site->max_z)
        return;
    float t;
    const FlatZone *zone = site_zone_at(site, (float)wx + 0.5f, (float)wz + 0.5f, &t);
    if (!zone)
        return;
    for (int y = 0; y < 256; y++) {
        float flat = zone->height - (float)y;
        density[y] = flat + (density[y] - flat) * t;
    }
}

/* ---- painting ---- */

typedef struct DungeonGrid {
    bool ok;
    int16_t cells[GEN_DUNGEON_MAX_CELLS];
} DungeonGrid;

static const DungeonGrid *dungeon_grid(const GenStructures *s, GenContext *ctx, const GenSite *site)
{
    GenCache *cache = &ctx->features[GEN_FEATURE_SLOT_DUNGEONS];
    cache->item_size = sizeof(DungeonGrid);
    bool hit;
    GenCacheEntry *e = gen_cache_lookup(cache, s->key, site->rx, site->rz, &hit);
    if (hit && e->count == 1)
        return e->items;
    if (!gen_cache_reserve(cache, e, 1))
        return NULL;
    DungeonGrid *g = e->items;
    e->count = 1;
    memset(g, 0, sizeof *g);
    WfcConstraint c = {site->ecx, site->gsy - 1, site->ecz, "dead_end"};
    WfcGrid grid = {0};
    if (wfc_solve(s->tileset, site->gsx, site->gsy, site->gsz, rng_hash2(s->seed, site->rx, site->rz), &c, 1,
                  &grid) == ST_OK) {
        memcpy(g->cells, grid.tiles, sizeof(int16_t) * (size_t)(site->gsx * site->gsy * site->gsz));
        g->ok = true;
        wfc_grid_free(&grid);
    }
    gen_cache_publish(cache, e);
    return g;
}

static void put(TerrainChunk *chunk, int wx, int y, int wz, int block)
{
    int lx = wx - chunk->origin_x, lz = wz - chunk->origin_z;
    if (lx < 0 || lx > 15 || lz < 0 || lz > 15 || y < 1 || y > 254 || block == VOXEL_TEMPLATE_KEEP)
        return;
    chunk_set_cell(chunk, lx, y, lz, cell_make(block, 0));
}

static void paint_shaft(const GenSite *site, const WfcTileset *ts, TerrainChunk *chunk)
{
    int cx = site->entrance_x, cz = site->entrance_z;
    if (cx + 3 < chunk->origin_x || cx - 3 > chunk->origin_x + 15 || cz + 3 < chunk->origin_z ||
        cz - 3 > chunk->origin_z + 15)
        return;
    int y0 = site->dy + site->gsy * ts->tile_size[1] - 1, y1 = site->entrance_y;
    /* the ring of the 3x3 around the centre pillar, in walking order */
    static const int ring[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}};
    for (int y = y0; y <= y1 + 3; y++)
        for (int dz = -2; dz <= 2; dz++)
            for (int dx = -2; dx <= 2; dx++) {
                bool wall = dx == -2 || dx == 2 || dz == -2 || dz == 2;
                int block = wall ? (y <= y1 ? BLOCK_COBBLESTONE : VOXEL_TEMPLATE_KEEP) : BLOCK_AIR;
                if (dx == 0 && dz == 0)
                    block = y <= y1 ? BLOCK_COBBLESTONE : BLOCK_AIR;
                if (y > y1 && wall)
                    continue;
                put(chunk, cx + dx, y, cz + dz, block);
            }
    for (int k = 0; y0 + k <= y1; k++) {
        const int *r = ring[k & 7];
        put(chunk, cx + r[0], y0 + k, cz + r[1], BLOCK_COBBLESTONE);
        if (((y0 + k) & 7) == 0)
            put(chunk, cx + r[0], y0 + k + 1, cz + r[1], BLOCK_TORCH);
    }
}

void gen_structures_pass3(const GenStructures *s, GenContext *ctx, TerrainChunk *chunk)
{
    GenSite scratch;
    const GenSite *site = gen_structures_site(s, region_of(chunk->origin_x), region_of(chunk->origin_z), &scratch);
    if (!site->dungeon)
        return;
    const WfcTileset *ts = s->tileset;
    const int tx = ts->tile_size[0], ty = ts->tile_size[1], tz = ts->tile_size[2];
    int x0 = site->dx, z0 = site->dz, x1 = x0 + site->gsx * tx - 1, z1 = z0 + site->gsz * tz - 1;
    int ox = chunk->origin_x, oz = chunk->origin_z;
    bool touches = !(x1 < ox || x0 > ox + 15 || z1 < oz || z0 > oz + 15);
    bool shaft = !(site->entrance_x + 3 < ox || site->entrance_x - 3 > ox + 15 || site->entrance_z + 3 < oz ||
                   site->entrance_z - 3 > oz + 15);
    if (!touches && !shaft)
        return;
    const DungeonGrid *grid = dungeon_grid(s, ctx, site);
    if (!grid || !grid->ok)
        return;
    if (touches)
        for (int lz = 0; lz < 16; lz++)
            for (int lx = 0; lx < 16; lx++) {
                int wx = ox + lx, wz = oz + lz;
                if (wx < x0 || wx > x1 || wz < z0 || wz > z1)
                    continue;
                int gx = (wx - x0) / tx, gz = (wz - z0) / tz, ux = (wx - x0) % tx, uz = (wz - z0) % tz;
                for (int gy = 0; gy < site->gsy; gy++) {
                    const WfcVariant *v = &ts->variants[grid->cells[(gy * site->gsz + gz) * site->gsx + gx]];
                    const VoxelTemplate *t = &ts->tiles[v->tile].mesh_template;
                    if (!t->voxels)
                        continue;
                    for (int uy = 0; uy < ty; uy++)
                        put(chunk, wx, site->dy + gy * ty + uy, wz, voxel_template_get_rotated(t, v->rotation, ux, uy, uz));
                }
            }
    if (shaft)
        paint_shaft(site, ts, chunk);
}

static bool is_vegetation(int b)
{
    switch (b) {
    case BLOCK_TALL_GRASS: case BLOCK_RED_FLOWER: case BLOCK_YELLOW_FLOWER: case BLOCK_PURPLE_FLOWER:
    case BLOCK_DRY_BUSH: case BLOCK_CACTUS: case BLOCK_PUMPKIN: case BLOCK_OAK_TRUNK: case BLOCK_OAK_LEAVES:
    case BLOCK_BIRCH_TRUNK: case BLOCK_BIRCH_LEAVES: case BLOCK_SPRUCE_TRUNK: case BLOCK_SPRUCE_LEAVES:
    case BLOCK_POPLAR_TRUNK: case BLOCK_POPLAR_LEAVES: case BLOCK_MIMOSA_TRUNK: case BLOCK_MIMOSA_LEAVES:
        return true;
    default:
        return false;
    }
}

void gen_structures_pass4(const GenStructures *s, TerrainChunk *chunk)
{
    GenSite scratch;
    const GenSite *site = gen_structures_site(s, region_of(chunk->origin_x), region_of(chunk->origin_z), &scratch);
    if (site->zone_count == 0)
        return;
    int ox = chunk->origin_x, oz = chunk->origin_z;
    if (site->max_x < ox || site->min_x > ox + 15 || site->max_z < oz || site->min_z > oz + 15)
        return;
    /* vegetation cleared on the flat areas (cores and bands) */
    for (int lz = 0; lz < 16; lz++)
        for (int lx = 0; lx < 16; lx++) {
            float t;
            if (!site_zone_at(site, (float)(ox + lx) + 0.5f, (float)(oz + lz) + 0.5f, &t))
                continue;
            for (int y = 1; y < 255; y++)
                if (is_vegetation(chunk_get_contents(chunk, lx, y, lz)))
                    chunk_set_cell(chunk, lx, y, lz, 0);
        }
    for (int i = 0; i < site->station_count; i++) {
        const GenStation *st = &site->stations[i];
        const VoxelTemplate *t = &s->manifest.defs[st->type].model;
        for (int z = 0; z < t->size[2]; z++)
            for (int x = 0; x < t->size[0]; x++) {
                int wx = st->x + x, wz = st->z + z;
                if (wx < ox || wx > ox + 15 || wz < oz || wz > oz + 15)
                    continue;
                for (int y = 0; y < t->size[1]; y++)
                    put(chunk, wx, st->y + y, wz, voxel_template_get(t, x, y, z));
            }
    }
}

/* ---- listing ---- */

int gen_structures_list(const GenStructures *s, int x, int z, int radius, GeneratorStructure *out, int max)
{
    int n = 0;
    int r0x = region_of(x - radius), r1x = region_of(x + radius), r0z = region_of(z - radius), r1z = region_of(z + radius);
    for (int rz = r0z; rz <= r1z; rz++)
        for (int rx = r0x; rx <= r1x; rx++) {
            GenSite scratch;
            const GenSite *site = gen_structures_site(s, rx, rz, &scratch);
            for (int k = 0; k < 2; k++) {
                GeneratorStructure g = {0};
                if (k == 0 && site->settlement) {
                    g.type = GEN_STRUCTURE_SETTLEMENT;
                    g.x = site->center_x;
                    g.y = site->center_y + 1;
                    g.z = site->center_z;
                    g.min_x = site->min_x;
                    g.max_x = site->max_x;
                    g.min_z = site->min_z;
                    g.max_z = site->max_z;
                    g.zone_count = site->zone_count - (site->dungeon ? 1 : 0);
                } else if (k == 1 && site->dungeon) {
                    g.type = GEN_STRUCTURE_DUNGEON;
                    g.x = site->entrance_x;
                    g.y = site->entrance_y + 1;
                    g.z = site->entrance_z;
                    g.min_x = site->dx;
                    g.max_x = site->dx + site->gsx * s->tileset->tile_size[0] - 1;
                    g.min_z = site->dz;
                    g.max_z = site->dz + site->gsz * s->tileset->tile_size[2] - 1;
                    g.zone_count = 1;
                } else {
                    continue;
                }
                long dx = g.x - x, dz = g.z - z;
                if (dx * dx + dz * dz > (long)radius * radius)
                    continue;
                /* insertion by distance, then type, then position: a stable order */
                int at = n < max ? n : max;
                for (int i = 0; i < (n < max ? n : max); i++) {
                    long ex = out[i].x - x, ez = out[i].z - z;
                    if (dx * dx + dz * dz < ex * ex + ez * ez) {
                        at = i;
                        break;
                    }
                }
                if (at >= max)
                    continue;
                int last = n < max ? n : max - 1;
                memmove(&out[at + 1], &out[at], sizeof *out * (size_t)(last - at));
                out[at] = g;
                if (n < max)
                    n++;
            }
        }
    return n;
}

bool gen_structures_excluded(const GenStructures *s, int x, int z, int clearance)
{
    GenSite scratch;
    const GenSite *site = gen_structures_site(s, region_of(x), region_of(z), &scratch);
    float t;
    if (site->zone_count > 0 && x >= site->min_x && x <= site->max_x && z >= site->min_z && z <= site->max_z &&
        site_zone_at(site, (float)x + 0.5f, (float)z + 0.5f, &t))
        return true;
    if (site->dungeon) {
        int dx = x - site->entrance_x, dz = z - site->entrance_z;
        if (dx * dx + dz * dz <= clearance * clearance)
            return true;
    }
    return false;
}
