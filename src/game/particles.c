/* particles.c — block bursts: PARTICLES_PER_BURST small cubes thrown up and out from the cell's centre,
 * falling under gravity for PARTICLES_LIFETIME seconds and shrinking as they age. Positions and speeds
 * come from a splitmix sequence, so a scripted run throws the same bits every time. */
#include "particles.h"

#include <string.h>

#include "strata/rng.h"

static float unit(Particles *p)
{
    p->seed = rng_mix64(p->seed + 0x9e3779b97f4a7c15ull);
    return (float)(p->seed >> 40) / (float)(1u << 24);
}

static void remove_at(Particles *p, int i)
{
    p->count--;
    p->draw[i] = p->draw[p->count];
    memcpy(p->velocity[i], p->velocity[p->count], sizeof p->velocity[i]);
    p->age[i] = p->age[p->count];
}

void particles_burst(Particles *p, int x, int y, int z, const uint8_t rgb[3])
{
    for (int k = 0; k < PARTICLES_PER_BURST; k++) {
        if (p->count == PARTICLES_MAX) remove_at(p, 0);
        int i = p->count++;
        RenderParticle *d = &p->draw[i];
        d->position[0] = x + 0.2 + 0.6 * unit(p);
        d->position[1] = y + 0.2 + 0.6 * unit(p);
        d->position[2] = z + 0.2 + 0.6 * unit(p);
        d->size = 0.12f + 0.08f * unit(p);
        float shade = 0.75f + 0.35f * unit(p);
        for (int c = 0; c < 3; c++) {
            float v = rgb[c] * shade;
            d->color[c] = (uint8_t)(v > 255.0f ? 255.0f : v);
        }
        p->velocity[i][0] = (unit(p) - 0.5f) * 3.0f;
        p->velocity[i][1] = 1.5f + 2.5f * unit(p);
        p->velocity[i][2] = (unit(p) - 0.5f) * 3.0f;
        p->age[i] = 0.0f;
    }
}

void particles_step(Particles *p, float seconds)
{
    for (int i = p->count - 1; i >= 0; i--) {
        p->age[i] += seconds;
        if (p->age[i] >= PARTICLES_LIFETIME) {
            remove_at(p, i);
            continue;
        }
        p->velocity[i][1] -= 18.0f * seconds;
        for (int a = 0; a < 3; a++) {
            p->velocity[i][a] *= 1.0f - 0.8f * seconds;
            p->draw[i].position[a] += p->velocity[i][a] * seconds;
        }
        p->draw[i].size *= 1.0f - 0.6f * seconds;
    }
}
