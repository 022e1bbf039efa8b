/* particles.h — the short bursts of block-coloured bits a destroyed block throws (edit.h's particle events),
 * simulated on the CPU (gravity, a little drag, a lifetime) and handed to the renderer as RenderParticles.
 * Pure: no SDL, no GL. Threads: main thread. */
#ifndef STRATA_GAME_PARTICLES_H
#define STRATA_GAME_PARTICLES_H

#include <stdint.h>
#include "strata/render.h"

#define PARTICLES_MAX 512
#define PARTICLES_PER_BURST 14
#define PARTICLES_LIFETIME 0.8f

typedef struct Particles {
    RenderParticle draw[PARTICLES_MAX];
    float velocity[PARTICLES_MAX][3];
    float age[PARTICLES_MAX];
    int count;
    uint64_t seed;
} Particles;

/* A burst from the cell (x, y, z) in colour rgb (shades of it); the oldest make room when full. */
void particles_burst(Particles *p, int x, int y, int z, const uint8_t rgb[3]);
void particles_step(Particles *p, float seconds);

#endif
