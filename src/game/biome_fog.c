/* biome_fog.c — the fog follows the biome at the player (biome_fog.h).
 *
 * Design: the blended fog (biome_set_fog_at_generator) is already continuous in position, so walking never
 * jumps; the easing is for what position alone cannot smooth: a teleport, a fast flight, and the 0.25 s
 * sample steps. An exponential step (1 - e^(-dt/tau)) is independent of the frame rate: two 8 ms frames
 * move the fog exactly as far as one 16 ms frame. */
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

void biome_fog_update(BiomeFogEase *f, const BiomeSet *set, const Generator *gen, double x, double z, double dt,
                      bool snap)
{
    if (!set || !gen)
        return;
    f->since_sample += dt > 0.0 ? dt : 0.0;
    if (snap || !f->started || f->since_sample >= BIOME_FOG_SAMPLE_SECONDS) {
        biome_set_fog_at_generator(set, gen, (float)x, (float)z, &f->target);
        f->since_sample = 0.0;
        if (snap || !f->started) {
            f->current = f->target;
            f->started = true;
            return;
        }
    }
    biome_fog_ease(f, dt);
}
