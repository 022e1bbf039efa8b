/* flat_zone.h — flat zones (seed 004): level ground under stations and buildings, blended into the
 * procedural terrain with a smoothstep band.
 *
 * A FlatZone is a rectangle (width along x, depth along z) or a circle (diameter `width`) centred on
 * (center_x, center_z) whose core has the exact height `height`; around it a band `blend_radius` wide blends
 * into the procedural height:
 *     blendX = clamp((|x - cx| - width / 2) / blendRadius, 0, 1), blendZ likewise along z (a circle uses the
 *     radial distance for both), t = smoothstep(max(blendX, blendZ)) = s * s * (3 - 2 s),
 *     height = zone + (procedural - zone) * t.
 * Inside the core t = 0 (the zone's height), outside the band t = 1 (the procedural height).
 * Overlaps resolve deterministically and independently of registration order: the zone with the smallest t
 * at the point wins, then the lower id.
 *
 * FlatZoneSet is the runtime registry (stations placed by players): register, unregister by id, and a
 * spatial index of square tiles (tile size configurable) in an open-addressed hash, so a lookup costs one
 * hash probe sequence and no allocation. Ownership: the set owns its zones and index. Threads: a set is owned
 * by one thread (the main thread for runtime stations); concurrent readers are fine while nobody writes.
 * Generation never reads a FlatZoneSet: the zones under generated settlements are derived from the seed
 * (src/gen/structures), so they are known before the chunks under them generate, on any thread. */
#ifndef STRATA_FLAT_ZONE_H
#define STRATA_FLAT_ZONE_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/error.h"

typedef enum FlatZoneShape { FLAT_ZONE_RECT = 0, FLAT_ZONE_CIRCLE = 1 } FlatZoneShape;

typedef struct FlatZone {
    uint32_t id;                 /* nonzero, unique in a set */
    float center_x, center_z;
    float width, depth;          /* core extent in x and z (a circle: width is the diameter, depth ignored) */
    float height;                /* the core's exact height */
    float blend_radius;          /* width of the smoothstep band (0: a hard edge) */
    FlatZoneShape shape;
} FlatZone;

/* The seed's smoothstep: 0 below 0, 1 above 1, s * s * (3 - 2 s) between. */
float flat_zone_smoothstep(float s);
/* The blend factor t of zone z at (x, z): 0 in the core, 1 outside the band, smoothstep in the band. */
float flat_zone_blend(const FlatZone *zone, float x, float z);
/* height = zone + (procedural - zone) * t */
static inline float flat_zone_mix(const FlatZone *zone, float t, float procedural)
{
    return zone->height + (procedural - zone->height) * t;
}
/* The horizontal bounds (inclusive floats) of everything a zone changes: core plus band. */
void flat_zone_bounds(const FlatZone *zone, float *min_x, float *max_x, float *min_z, float *max_z);
/* Of two zones that both reach a point, does `a` (blend ta) win over `b` (blend tb)? The deterministic rule. */
static inline bool flat_zone_wins(const FlatZone *a, float ta, const FlatZone *b, float tb)
{
    return ta < tb || (ta == tb && a->id < b->id);
}

typedef struct FlatZoneSet FlatZoneSet;

/* A set whose index uses square tiles of tile_size blocks (1..4096; 0 = 64). NULL when out of memory. */
FlatZoneSet *flat_zone_set_create(int tile_size);
void flat_zone_set_destroy(FlatZoneSet *set);
/* Registers a copy of *zone. ST_ERR_ARG for id 0, a negative or non-finite extent; ST_ERR_EXISTS for an id
 * already registered; ST_ERR_NOMEM. On failure the set is unchanged. */
StResult flat_zone_set_register(FlatZoneSet *set, const FlatZone *zone);
/* Removes the zone with this id; false when there is none. */
bool flat_zone_set_unregister(FlatZoneSet *set, uint32_t id);
int flat_zone_set_count(const FlatZoneSet *set);
/* The zone that governs (x, z) (the winner of the overlap rule among the zones whose core or band holds the
 * point), or NULL; *t_out (may be NULL) gets its blend factor. No allocation. */
const FlatZone *flat_zone_set_at(const FlatZoneSet *set, float x, float z, float *t_out);
/* The height at (x, z): the governing zone's blend of `procedural`, or `procedural` where no zone reaches. */
float flat_zone_set_height(const FlatZoneSet *set, float x, float z, float procedural);
/* The zone with this id, or NULL. */
const FlatZone *flat_zone_set_find(const FlatZoneSet *set, uint32_t id);

#endif
