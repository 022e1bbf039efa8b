/* far_fixture.h — what the far terrain's tests share (test_far_terrain.c, test_far_columns.c): seed 1's
 * generator and blocks.json's palette, opened once by far_fixture_open; the smoothness of the generator's
 * terrain at a level's grid; and the side faces of a built patch (a step between columns is closed).
 * Header-only, one copy a test executable. */
#ifndef STRATA_TEST_FAR_FIXTURE_H
#define STRATA_TEST_FAR_FIXTURE_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "strata/block.h"
#include "strata/far_terrain.h"
#include "strata/generator.h"
#include "strata/world_settings.h"

static BlockRegistry *blocks;
static FarPalette palette;   /* blocks.json's map colours */
static Generator *gen;

/* Seed 1's generator and the palette; false (with a message) when the assets are missing. */
static inline bool far_fixture_open(void)
{
    if (block_registry_load("assets/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "cannot load assets/blocks.json: %s\n", st_error_message());
        return false;
    }
    far_palette_init(&palette, blocks);
    WorldSettings ws;
    world_settings_default(&ws);
    ws.seed = 1;
    if (generator_create(&ws, blocks, "assets/worldgen.json", &gen) != ST_OK) {
        fprintf(stderr, "generator: %s\n", st_error_message());
        return false;
    }
    return true;
}

static inline void far_fixture_close(void)
{
    generator_destroy(gen);
    block_registry_destroy(blocks);
}

/* Whether the generator's terrain is smooth around world (x, z) at the scale of level's height grid (points
 * 4 << level blocks apart): its second differences over one spacing (along x, along z and across) are at most
 * a block, so a mix of the grid's heights lies within a block of the generator's own. */
static inline bool smooth_at(int level, double x, double z)
{
    float d = (float)(4 << level), fx = (float)x, fz = (float)z, h = gen->calculate_height(gen, fx, fz);
    float ddx = gen->calculate_height(gen, fx + d, fz) + gen->calculate_height(gen, fx - d, fz) - 2.0f * h;
    float ddz = gen->calculate_height(gen, fx, fz + d) + gen->calculate_height(gen, fx, fz - d) - 2.0f * h;
    float dxz = (gen->calculate_height(gen, fx + d, fz + d) - gen->calculate_height(gen, fx + d, fz - d) -
                 gen->calculate_height(gen, fx - d, fz + d) + gen->calculate_height(gen, fx - d, fz - d)) * 0.25f;
    return fabsf(ddx) <= 1.0f && fabsf(ddz) <= 1.0f && fabsf(dxz) <= 1.0f;
}

/* The lowest and highest y of patch p's side faces in the plane of its local coordinate `plane` along axis
 * `axis` (0: x = plane, faces looking along X; 2: z = plane) that cover coordinate s along that plane (the
 * other horizontal axis). Faces are quads of 4 vertices of their own. Returns false if none. */
static inline bool side_span(const FarPatch *p, int axis, float plane, float s, float *lo, float *hi)
{
    bool any = false;
    *lo = 1e9f;
    *hi = -1e9f;
    for (int q = 0; q + 3 < p->vertex_count; q += 4) {
        const FarVertex *v = &p->vertices[q];
        bool in_plane = true;
        float s0 = 1e9f, s1 = -1e9f, y0 = 1e9f, y1 = -1e9f;
        for (int k = 0; k < 4; k++) {
            float a = axis == 0 ? v[k].x : v[k].z, b = axis == 0 ? v[k].z : v[k].x;
            in_plane &= fabsf(a - plane) < 1e-4f;
            s0 = fminf(s0, b);
            s1 = fmaxf(s1, b);
            y0 = fminf(y0, v[k].y);
            y1 = fmaxf(y1, v[k].y);
        }
        if (!in_plane || y1 - y0 < 1e-4f || s < s0 - 1e-4f || s > s1 + 1e-4f) continue;
        any = true;
        *lo = fminf(*lo, y0);
        *hi = fmaxf(*hi, y1);
    }
    return any;
}

/* Whether the step between two columns at the point s of plane (axis, plane) of patch p (its higher column's
 * patch) is closed: a side spans from the higher top down to the lower one. */
static inline bool step_closed(const FarPatch *p, int axis, float plane, float s, float high, float low)
{
    if (high - low < 1e-3f) return true;
    float lo, hi;
    return side_span(p, axis, plane, s, &lo, &hi) && lo <= low + 1e-3f && hi >= high - 1e-3f;
}

#endif
