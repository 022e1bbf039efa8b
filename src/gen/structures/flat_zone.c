/* flat_zone.c — flat zones: the seed-004 blend formula and the runtime registry with its tile index.
 *
 * Design: zones live in a slot array (stable indices, a free list); the index is an open-addressed hash
 * (linear probing, power-of-two capacity, load <= 1/2) from a tile (tx, tz) = floor(x / tile) to the
 * bucket of zone slots whose core-plus-band rectangle meets that tile. A lookup hashes the point's tile
 * once, walks that bucket and keeps the winner of the overlap rule (smallest t, then lowest id), so the
 * answer never depends on registration order. Tiles whose bucket empties keep their slot (no tombstones);
 * the table only grows. */
#include "strata/flat_zone.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct TileSlot {
    int32_t tx, tz;
    bool used;
    int count, cap;
    uint32_t *zones;     /* zone slot indices */
} TileSlot;

typedef struct ZoneBox {
    float min_x, max_x, min_z, max_z;
} ZoneBox;

struct FlatZoneSet {
    int tile;
    float inv_tile;
    ZoneBox *boxes;              /* per slot: core plus band, for a cheap reject before the blend */
    FlatZone *zones;
    bool *alive;
    int zone_count, zone_cap, live;
    TileSlot *slots;
    int slot_cap, slot_used;     /* power of two */
};

float flat_zone_smoothstep(float s)
{
    if (s <= 0.0f)
        return 0.0f;
    if (s >= 1.0f)
        return 1.0f;
    return s * s * (3.0f - 2.0f * s);
}

static float band(float dist, float half, float blend)
{
    float over = dist - half;
    if (over <= 0.0f)
        return 0.0f;
    if (blend <= 0.0f)
        return 1.0f;
    float s = over / blend;
    return s > 1.0f ? 1.0f : s;
}

float flat_zone_blend(const FlatZone *zone, float x, float z)
{
    float dx = x - zone->center_x, dz = z - zone->center_z;
    float s;
    if (zone->shape == FLAT_ZONE_CIRCLE) {
        s = band(sqrtf(dx * dx + dz * dz), zone->width * 0.5f, zone->blend_radius);
    } else {
        float bx = band(fabsf(dx), zone->width * 0.5f, zone->blend_radius);
        float bz = band(fabsf(dz), zone->depth * 0.5f, zone->blend_radius);
        s = bx > bz ? bx : bz;
    }
    return flat_zone_smoothstep(s);
}

void flat_zone_bounds(const FlatZone *zone, float *min_x, float *max_x, float *min_z, float *max_z)
{
    float hx = zone->width * 0.5f + zone->blend_radius;
    float hz = (zone->shape == FLAT_ZONE_CIRCLE ? zone->width : zone->depth) * 0.5f + zone->blend_radius;
    *min_x = zone->center_x - hx;
    *max_x = zone->center_x + hx;
    *min_z = zone->center_z - hz;
    *max_z = zone->center_z + hz;
}

/* ---- the registry ---- */

FlatZoneSet *flat_zone_set_create(int tile_size)
{
    if (tile_size <= 0)
        tile_size = 64;
    if (tile_size > 4096)
        tile_size = 4096;
    FlatZoneSet *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->tile = tile_size;
    s->inv_tile = 1.0f / (float)tile_size;
    s->slot_cap = 64;
    s->slots = calloc((size_t)s->slot_cap, sizeof *s->slots);
    if (!s->slots) {
        free(s);
        return NULL;
    }
    return s;
}

void flat_zone_set_destroy(FlatZoneSet *set)
{
    if (!set)
        return;
    for (int i = 0; i < set->slot_cap; i++)
        free(set->slots[i].zones);
    free(set->slots);
    free(set->zones);
    free(set->alive);
    free(set->boxes);
    free(set);
}

static uint32_t tile_hash(int32_t tx, int32_t tz)
{
    uint64_t h = ((uint64_t)(uint32_t)tx << 32) | (uint32_t)tz;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (uint32_t)h;
}

static TileSlot *tile_find(const FlatZoneSet *s, int32_t tx, int32_t tz)
{
    uint32_t mask = (uint32_t)s->slot_cap - 1;
    for (uint32_t i = tile_hash(tx, tz) & mask;; i = (i + 1) & mask) {
        TileSlot *t = &s->slots[i];
        if (!t->used)
            return NULL;
        if (t->tx == tx && t->tz == tz)
            return t;
    }
}

static TileSlot *tile_insert_slot(TileSlot *slots, int cap, int32_t tx, int32_t tz)
{
    uint32_t mask = (uint32_t)cap - 1;
    for (uint32_t i = tile_hash(tx, tz) & mask;; i = (i + 1) & mask)
        if (!slots[i].used || (slots[i].tx == tx && slots[i].tz == tz))
            return &slots[i];
}

static bool tile_grow(FlatZoneSet *s)
{
    int cap = s->slot_cap * 2;
    TileSlot *slots = calloc((size_t)cap, sizeof *slots);
    if (!slots)
        return false;
    for (int i = 0; i < s->slot_cap; i++)
        if (s->slots[i].used)
            *tile_insert_slot(slots, cap, s->slots[i].tx, s->slots[i].tz) = s->slots[i];
    free(s->slots);
    s->slots = slots;
    s->slot_cap = cap;
    return true;
}

static TileSlot *tile_get(FlatZoneSet *s, int32_t tx, int32_t tz)
{
    TileSlot *t = tile_find(s, tx, tz);
    if (t)
        return t;
    if ((s->slot_used + 1) * 2 > s->slot_cap && !tile_grow(s))
        return NULL;
    t = tile_insert_slot(s->slots, s->slot_cap, tx, tz);
    t->used = true;
    t->tx = tx;
    t->tz = tz;
    s->slot_used++;
    return t;
}

static void tile_range(const FlatZoneSet *s, const FlatZone *z, int32_t *tx0, int32_t *tx1, int32_t *tz0, int32_t *tz1)
{
    float a, b, c, d;
    flat_zone_bounds(z, &a, &b, &c, &d);
    *tx0 = (int32_t)floorf(a * s->inv_tile);
    *tx1 = (int32_t)floorf(b * s->inv_tile);
    *tz0 = (int32_t)floorf(c * s->inv_tile);
    *tz1 = (int32_t)floorf(d * s->inv_tile);
}

static void bucket_remove(TileSlot *t, uint32_t idx)
{
    for (int i = 0; i < t->count; i++)
        if (t->zones[i] == idx) {
            t->zones[i] = t->zones[--t->count];
            return;
        }
}

static int find_index(const FlatZoneSet *s, uint32_t id)
{
    for (int i = 0; i < s->zone_count; i++)
        if (s->alive[i] && s->zones[i].id == id)
            return i;
    return -1;
}

StResult flat_zone_set_register(FlatZoneSet *set, const FlatZone *zone)
{
    if (zone->id == 0)
        return st_fail(ST_ERR_ARG, "flat zone: id 0 is reserved");
    float vals[6] = {zone->center_x, zone->center_z, zone->width, zone->depth, zone->height, zone->blend_radius};
    for (int i = 0; i < 6; i++)
        if (!isfinite(vals[i]) || (i >= 2 && i != 4 && vals[i] < 0.0f))
            return st_fail(ST_ERR_ARG, "flat zone %u: extents must be finite and >= 0", zone->id);
    float a, b, c, d;
    flat_zone_bounds(zone, &a, &b, &c, &d);
    if (fabsf(a) > 1e8f || fabsf(b) > 1e8f || fabsf(c) > 1e8f || fabsf(d) > 1e8f ||
        (b - a) / (float)set->tile > 4096.0f || (d - c) / (float)set->tile > 4096.0f)
        return st_fail(ST_ERR_ARG, "flat zone %u: too large for the index (tile %d)", zone->id, set->tile);
    if (find_index(set, zone->id) >= 0)
        return st_fail(ST_ERR_EXISTS, "flat zone %u is already registered", zone->id);
    int idx = -1;
    for (int i = 0; i < set->zone_count; i++)
        if (!set->alive[i]) {
            idx = i;
            break;
        }
    if (idx < 0) {
        if (set->zone_count == set->zone_cap) {
            int cap = set->zone_cap ? set->zone_cap * 2 : 16;
            FlatZone *z = realloc(set->zones, (size_t)cap * sizeof *z);
            if (!z)
                return st_fail(ST_ERR_NOMEM, "flat zone: out of memory");
            set->zones = z;
            bool *al = realloc(set->alive, (size_t)cap * sizeof *al);
            if (!al)
                return st_fail(ST_ERR_NOMEM, "flat zone: out of memory");
            set->alive = al;
            ZoneBox *bx = realloc(set->boxes, (size_t)cap * sizeof *bx);
            if (!bx)
                return st_fail(ST_ERR_NOMEM, "flat zone: out of memory");
            set->boxes = bx;
            set->zone_cap = cap;
        }
        idx = set->zone_count++;
        set->alive[idx] = false;
    }
    set->zones[idx] = *zone;
    flat_zone_bounds(zone, &set->boxes[idx].min_x, &set->boxes[idx].max_x, &set->boxes[idx].min_z,
                     &set->boxes[idx].max_z);
    int32_t tx0, tx1, tz0, tz1;
    tile_range(set, zone, &tx0, &tx1, &tz0, &tz1);
    for (int32_t tz = tz0; tz <= tz1; tz++)
        for (int32_t tx = tx0; tx <= tx1; tx++) {
            TileSlot *t = tile_get(set, tx, tz);
            if (t && t->count == t->cap) {
                int cap = t->cap ? t->cap * 2 : 4;
                uint32_t *zs = realloc(t->zones, (size_t)cap * sizeof *zs);
                if (zs) {
                    t->zones = zs;
                    t->cap = cap;
                } else {
                    t = NULL;
                }
            }
            if (!t) { /* undo what was indexed so far */
                for (int32_t uz = tz0; uz <= tz1; uz++)
                    for (int32_t ux = tx0; ux <= tx1; ux++) {
                        TileSlot *u = tile_find(set, ux, uz);
                        if (u)
                            bucket_remove(u, (uint32_t)idx);
                    }
                return st_fail(ST_ERR_NOMEM, "flat zone: out of memory");
            }
            t->zones[t->count++] = (uint32_t)idx;
        }
    set->alive[idx] = true;
    set->live++;
    return ST_OK;
}

bool flat_zone_set_unregister(FlatZoneSet *set, uint32_t id)
{
    int idx = find_index(set, id);
    if (idx < 0)
        return false;
    int32_t tx0, tx1, tz0, tz1;
    tile_range(set, &set->zones[idx], &tx0, &tx1, &tz0, &tz1);
    for (int32_t tz = tz0; tz <= tz1; tz++)
        for (int32_t tx = tx0; tx <= tx1; tx++) {
            TileSlot *t = tile_find(set, tx, tz);
            if (t)
                bucket_remove(t, (uint32_t)idx);
        }
    set->alive[idx] = false;
    set->live--;
    return true;
}

int flat_zone_set_count(const FlatZoneSet *set) { return set->live; }

const FlatZone *flat_zone_set_find(const FlatZoneSet *set, uint32_t id)
{
    int idx = find_index(set, id);
    return idx < 0 ? NULL : &set->zones[idx];
}

const FlatZone *flat_zone_set_at(const FlatZoneSet *set, float x, float z, float *t_out)
{
    /* the same expression as tile_range: float rounding is monotonic, so a point inside a zone's bounds
     * always lands on a tile that lists the zone */
    int32_t tx = (int32_t)floorf(x * set->inv_tile), tz = (int32_t)floorf(z * set->inv_tile);
    const TileSlot *t = tile_find(set, tx, tz);
    const FlatZone *best = NULL;
    float best_t = 1.0f;
    if (t)
        for (int i = 0; i < t->count; i++) {
            const ZoneBox *b = &set->boxes[t->zones[i]];
            if (x < b->min_x || x > b->max_x || z < b->min_z || z > b->max_z)
                continue;
            const FlatZone *zone = &set->zones[t->zones[i]];
            float bt = flat_zone_blend(zone, x, z);
            if (bt >= 1.0f)
                continue;
            if (!best || flat_zone_wins(zone, bt, best, best_t)) {
                best = zone;
                best_t = bt;
            }
        }
    if (t_out)
        *t_out = best_t;
    return best;
}

float flat_zone_set_height(const FlatZoneSet *set, float x, float z, float procedural)
{
    float t;
    const FlatZone *zone = flat_zone_set_at(set, x, z, &t);
    return zone ? flat_zone_mix(zone, t, procedural) : procedural;
}
