/* biome_fog.c — the fog follows the biome at the player (biome_fog.h).
 *
 * Design: the blended fog (biome_set_fog_at_generator) is already continuous in position, so walking never
 * jumps; the easing is for what position alone cannot smooth: a teleport, a fast flight, and the 0.25 s
 * sample steps. An exponential step (1 - e^(-dt/tau)) is independent of the frame rate: two 8 ms frames
 * move the fog exactly as far as one 16 ms frame. The blend's samples sit on a fixed world grid, so the climate
 * of each grid point is remembered (a direct-mapped 16 x 16 window): a sample after a step of a few blocks
 * computes a row of new points at most, not the ~29 of a blend (measured: ~0.7 ms for a full blend of seed 1
 * under load, most of it in calculate_height). */
#include "biome_fog.h"

#include <math.h>
#include <string.h>

void biome_fog_init(BiomeFogEase *f)
{
    memset(f, 0, sizeof *f);
}

void biome_fog_ease(BiomeFogEase *f, double dt)
{
    if (dt <= 0.0)
        return;
    float k = (float)(1.0 - exp(-dt / BIOME_FOG_EASE_SECONDS));
    for (int c = 0; c < 3; c++)
        f->current.color[c] += (f->target.color[c] - f->current.color[c]) * k;
    f->current.density += (f->target.density - f->current.density) * k;
}

/* BiomeClimateFn over the cache: the blend asks only for grid points. */
static void cached_climate(void *user, float x, float z, int *temperature, int *humidity, float *height)
{
    BiomeFogEase *f = user;
    const Generator *g = f->cached_for;
    int gx = (int)floorf(x / (float)BIOME_BLEND_STEP), gz = (int)floorf(z / (float)BIOME_BLEND_STEP);
    BiomeClimateSlot *s = &f->cache[(gz & (BIOME_FOG_CACHE_SIDE - 1)) * BIOME_FOG_CACHE_SIDE +
                                    (gx & (BIOME_FOG_CACHE_SIDE - 1))];
    if (!s->used || s->gx != gx || s->gz != gz) {
        s->used = true;
        s->gx = gx;
        s->gz = gz;
        s->temperature = g->calculate_temperature ? g->calculate_temperature(g, x, z) : 8;
        s->humidity = g->calculate_humidity ? g->calculate_humidity(g, x, z) : 8;
        s->height = g->calculate_height ? g->calculate_height(g, x, z)
                                        : (float)(g->ocean_level ? g->ocean_level(g) : 64);
    }
    *temperature = s->temperature;
    *humidity = s->humidity;
    *height = s->height;
}

void biome_fog_update(BiomeFogEase *f, const BiomeSet *set, const Generator *gen, double x, double z, double dt,
                      bool snap)
{
    if (!set || !gen)
        return;
    f->since_sample += dt > 0.0 ? dt : 0.0;
    if (snap || !f->started || f->since_sample >= BIOME_FOG_SAMPLE_SECONDS) {
        if (f->cached_for != gen) {
            memset(f->cache, 0, sizeof f->cache);
            f->cached_for = gen;
        }
        biome_set_fog_at(set, cached_climate, f, (float)x, (float)z, &f->target);
        f->since_sample = 0.0;
        if (snap || !f->started) {
            f->current = f->target;
            f->started = true;
            return;
        }
    }
    biome_fog_ease(f, dt);
}
