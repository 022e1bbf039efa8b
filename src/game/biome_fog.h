/* biome_fog.h — the fog follows the biome at the player: the blended biome fog (biome.h) sampled at the
 * player's position a few times a second and eased toward, so that crossing a border or a teleport's
 * arrival fades over about two seconds instead of switching.
 *
 * Ownership: BiomeFogEase is a plain value inside the GameView (no allocation); the BiomeSet and Generator it is
 * given belong to the caller. Threads: the main thread (the generator's climate methods are pure, so the
 * samples are safe while the update worker generates). */
#ifndef STRATA_GAME_BIOME_FOG_H
#define STRATA_GAME_BIOME_FOG_H

#include <stdbool.h>
#include "strata/biome.h"
#include "strata/generator.h"

/* Seconds between samples of the target fog (a sample is ~30 climate queries) and the easing time
 * constant: 1 - e^(-2 / 0.6) = 96% of the way in 2 s. */
#define BIOME_FOG_SAMPLE_SECONDS 0.25
#define BIOME_FOG_EASE_SECONDS 0.6

/* The climate at the blend's grid points (world-aligned, BIOME_BLEND_STEP apart), remembered: successive samples
 * share nearly all their points, and a point's climate (height above all) is the costly part. Direct-mapped
 * on a 16 x 16 window of points, wider than one blend's 7 x 7. */
#define BIOME_FOG_CACHE_SIDE 16
typedef struct BiomeClimateSlot {
    bool used;
    int gx, gz;                 /* grid point (world / BIOME_BLEND_STEP) */
    int temperature, humidity;
    float height;
} BiomeClimateSlot;

typedef struct BiomeFogEase {
    const Generator *cached_for;    /* the generator the cache holds climate of */
    BiomeClimateSlot cache[BIOME_FOG_CACHE_SIDE * BIOME_FOG_CACHE_SIDE];
    bool started;               /* false until the first sample: it is taken as is (no fade from nothing) */
    double since_sample;        /* seconds since the last sample */
    BiomeFog target;            /* the blended fog at the player, as last sampled */
    BiomeFog current;           /* what the renderer gets: eased toward target */
} BiomeFogEase;

void biome_fog_init(BiomeFogEase *f);
/* Advances by dt seconds: samples the blended fog at world (x, z) when due (or at once when `snap`, e.g. on a
 * loading screen, which also jumps current to it), then eases current toward the target. With set or gen
 * NULL nothing changes. */
void biome_fog_update(BiomeFogEase *f, const BiomeSet *set, const Generator *gen, double x, double z, double dt,
                      bool snap);
/* Eases current toward target by dt seconds (the exponential step; exposed for tests). */
void biome_fog_ease(BiomeFogEase *f, double dt);

#endif
