/* terrain_tools.c — raise/lower, flatten, smooth and paint on terrain columns (terrain_tools.h).
 *
 * Design. Every tool first reads the surface heights of the disc (plus a one-column ring for smooth) into
 * a square grid, computes the new heights, then rewrites only the columns that change, through
 * editor_change_cell inside one action, so the stroke is one undo. Reading a column takes its chunk once
 * and scans down from the top with the chunk accessor: a radius-16 disc is ~800 columns. Smooth keeps a
 * guarantee rather than hoping for it: after smoothing and rounding, if some neighbouring pair would step
 * higher than the steepest step before, the change is scaled back (bisection on the blend factor; 0 is
 * the original, which always passes). */
#include "strata/terrain_tools.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/behaviour.h"
#include "strata/rng.h"

static const char *const FALLOFF_NAMES[TOOL_FALLOFF_COUNT] = {"none", "linear", "smooth"};

float terrain_tool_falloff(ToolFalloff falloff, float d, float r)
{
    if (r <= 0.0f || d > r) return 0.0f;
    float t = d / r;
    switch (falloff) {
    case TOOL_FALLOFF_LINEAR: return 1.0f - t;
    case TOOL_FALLOFF_SMOOTH: return 1.0f - t * t * (3.0f - 2.0f * t);
    default: return 1.0f;
    }
}

int terrain_tool_falloff_parse(const char *name)
{
    for (int i = 0; i < TOOL_FALLOFF_COUNT; i++)
        if (!strcmp(name, FALLOFF_NAMES[i])) return i;
    return -1;
}

static bool is_terrain(const BlockRegistry *b, int block)
{
    return block != BLOCK_AIR && b->opaque_cube[block] && b->solid[block];
}

int terrain_tool_surface_height(const Editor *e, int x, int z)
{
    const TerrainChunk *c = terrain_get_chunk_at_cell(editor_terrain(e), x, z);
    if (!c || c->state < CHUNK_STATE_INVALID_LIGHT) return -1;
    const BlockRegistry *b = editor_blocks(e);
    int lx = chunk_local_of(x), lz = chunk_local_of(z);
    for (int y = CHUNK_SIZE_Y - 1; y >= 0; y--)
        if (is_terrain(b, cell_contents(chunk_get_cell_shared(c, lx, y, lz)))) return y;
    return -1;
}

static StResult check_radius(const char *tool, int radius)
{
    if (radius < 1 || radius > TERRAIN_TOOL_MAX_RADIUS)
        return st_fail(ST_ERR_ARG, "%s: radius %d is outside 1..%d (a larger stroke would change up to %d columns "
                       "in one frame and one undo entry)", tool, radius, TERRAIN_TOOL_MAX_RADIUS,
                       (2 * TERRAIN_TOOL_MAX_RADIUS + 1) * (2 * TERRAIN_TOOL_MAX_RADIUS + 1));
    return ST_OK;
}

/* Heights of a (2 * half + 1)^2 square around (cx, cz); -1 where there is no surface. */
typedef struct HeightGrid {
    int cx, cz, half, side;
    int *h;
} HeightGrid;

static StResult grid_read(const Editor *e, int cx, int cz, int half, HeightGrid *g)
{
    g->cx = cx;
    g->cz = cz;
    g->half = half;
    g->side = 2 * half + 1;
    g->h = malloc((size_t)g->side * (size_t)g->side * sizeof *g->h);
    if (!g->h) return st_fail(ST_ERR_NOMEM, "terrain tool: out of memory");
    for (int j = 0; j < g->side; j++)
        for (int i = 0; i < g->side; i++) g->h[j * g->side + i] = terrain_tool_surface_height(e, cx - half + i, cz - half + j);
    return ST_OK;
}

static int *grid_at(const HeightGrid *g, int dx, int dz) { return &g->h[(dz + g->half) * g->side + dx + g->half]; }

static int under_block(int surface, int depth)
{
    if (depth > 3) return BLOCK_STONE;
    if (surface == BLOCK_GRASS || surface == BLOCK_SNOW || surface == BLOCK_DIRT) return BLOCK_DIRT;
    return surface;
}

/* Moves the column's surface from `from` to `to` (both valid, 0..254). Returns cells changed. */
static int set_column(Editor *e, int x, int z, int from, int to)
{
    if (to == from) return 0;
    const BlockRegistry *b = editor_blocks(e);
    int32_t top = editor_get_cell(e, x, from, z);
    if (top < 0) return 0;
    int surface = cell_contents(top);
    int n = 0;
    int32_t above = editor_get_cell(e, x, from + 1, z);
    if (above >= 0 && b->behaviour[cell_contents(above)] == BLOCK_BEHAVIOUR_NEEDS_SUPPORT && to < from)
        n += editor_change_cell(e, x, from + 1, z, cell_make(BLOCK_AIR, 0));
    if (to > from) {
        for (int y = from; y < to; y++) n += editor_change_cell(e, x, y, z, cell_make(under_block(surface, to - y), 0));
    } else {
        for (int y = from; y > to; y--) n += editor_change_cell(e, x, y, z, cell_make(BLOCK_AIR, 0));
    }
    n += editor_change_cell(e, x, to, z, cell_make(surface, 0));
    return n;
}

static int clamp_height(int h) { return h < 1 ? 1 : h > CHUNK_SIZE_Y - 2 ? CHUNK_SIZE_Y - 2 : h; }

StResult terrain_tool_modify_height(Editor *e, int x, int z, int radius, int delta, ToolFalloff falloff, int *changed)
{
    if (changed) *changed = 0;
    StResult rc = check_radius("raise", radius);
    if (rc != ST_OK) return rc;
    if (delta < -CHUNK_SIZE_Y || delta > CHUNK_SIZE_Y)
        return st_fail(ST_ERR_ARG, "raise: delta %d is outside -%d..%d", delta, CHUNK_SIZE_Y, CHUNK_SIZE_Y);
    int n = 0;
    editor_begin_action(e);
    for (int dz = -radius; dz <= radius; dz++)
        for (int dx = -radius; dx <= radius; dx++) {
            if (dx * dx + dz * dz > radius * radius) continue;
            float w = terrain_tool_falloff(falloff, sqrtf((float)(dx * dx + dz * dz)), (float)radius);
            int d = (int)lroundf((float)delta * w);
            if (d == 0) continue;
            int h = terrain_tool_surface_height(e, x + dx, z + dz);
            if (h < 0) continue;
            n += set_column(e, x + dx, z + dz, h, clamp_height(h + d));
        }
    editor_end_action(e);
    if (changed) *changed = n;
    return ST_OK;
}

/* Flatten's weight: 1 in the core (inner half), smooth to 0 at the rim. */
static float flatten_weight(float d, float r)
{
    float core = r * 0.5f;
    if (d <= core) return 1.0f;
    return terrain_tool_falloff(TOOL_FALLOFF_SMOOTH, d - core, r - core);
}

StResult terrain_tool_flatten(Editor *e, int x, int z, int radius, int target_y, float strength, int *changed)
{
    if (changed) *changed = 0;
    StResult rc = check_radius("flatten", radius);
    if (rc != ST_OK) return rc;
    if (target_y < 1 || target_y > CHUNK_SIZE_Y - 2)
        return st_fail(ST_ERR_ARG, "flatten: height %d is outside 1..%d", target_y, CHUNK_SIZE_Y - 2);
    if (!(strength > 0.0f && strength <= 1.0f))
        return st_fail(ST_ERR_ARG, "flatten: strength %g is outside 0..1 (0 excluded)", (double)strength);
    int n = 0;
    editor_begin_action(e);
    for (int dz = -radius; dz <= radius; dz++)
        for (int dx = -radius; dx <= radius; dx++) {
            if (dx * dx + dz * dz > radius * radius) continue;
            int h = terrain_tool_surface_height(e, x + dx, z + dz);
            if (h < 0) continue;
            float w = flatten_weight(sqrtf((float)(dx * dx + dz * dz)), (float)radius) * strength;
            int to = h + (int)lroundf((float)(target_y - h) * w);
            n += set_column(e, x + dx, z + dz, h, clamp_height(to));
        }
    editor_end_action(e);
    if (changed) *changed = n;
    return ST_OK;
}

/* The steepest step between 4-neighbouring columns that both have a surface, over the whole grid. */
static int grid_max_slope(const HeightGrid *g, const int *h)
{
    int best = 0;
    for (int j = 0; j < g->side; j++)
        for (int i = 0; i < g->side; i++) {
            int a = h[j * g->side + i];
            if (a < 0) continue;
            if (i + 1 < g->side && h[j * g->side + i + 1] >= 0) {
                int d = abs(a - h[j * g->side + i + 1]);
                if (d > best) best = d;
            }
            if (j + 1 < g->side && h[(j + 1) * g->side + i] >= 0) {
                int d = abs(a - h[(j + 1) * g->side + i]);
                if (d > best) best = d;
            }
        }
    return best;
}

StResult terrain_tool_smooth(Editor *e, int x, int z, int radius, float strength, int iterations, int *changed)
{
    if (changed) *changed = 0;
    StResult rc = check_radius("smooth", radius);
    if (rc != ST_OK) return rc;
    if (!(strength > 0.0f && strength <= 1.0f))
        return st_fail(ST_ERR_ARG, "smooth: strength %g is outside 0..1 (0 excluded)", (double)strength);
    if (iterations < 1 || iterations > 32)
        return st_fail(ST_ERR_ARG, "smooth: iterations %d is outside 1..32", iterations);
    HeightGrid g;
    if ((rc = grid_read(e, x, z, radius + 1, &g)) != ST_OK) return rc;
    size_t cells = (size_t)g.side * (size_t)g.side;
    float *f = malloc(cells * sizeof *f), *next = malloc(cells * sizeof *next);
    int *out = malloc(cells * sizeof *out);
    if (!f || !next || !out) {
        free(f), free(next), free(out), free(g.h);
        return st_fail(ST_ERR_NOMEM, "smooth: out of memory");
    }
    for (size_t i = 0; i < cells; i++) f[i] = (float)g.h[i];
    for (int it = 0; it < iterations; it++) {
        memcpy(next, f, cells * sizeof *f);
        for (int dz = -radius; dz <= radius; dz++)
            for (int dx = -radius; dx <= radius; dx++) {
                if (dx * dx + dz * dz > radius * radius || *grid_at(&g, dx, dz) < 0) continue;
                float sum = 0.0f;
                int count = 0;
                for (int oz = -1; oz <= 1; oz++)
                    for (int ox = -1; ox <= 1; ox++) {
                        if (*grid_at(&g, dx + ox, dz + oz) < 0) continue;
                        sum += f[(dz + oz + g.half) * g.side + dx + ox + g.half];
                        count++;
                    }
                int idx = (dz + g.half) * g.side + dx + g.half;
                float w = strength * terrain_tool_falloff(TOOL_FALLOFF_SMOOTH, sqrtf((float)(dx * dx + dz * dz)) * 0.5f,
                                                          (float)radius);
                next[idx] = f[idx] + w * (sum / (float)count - f[idx]);
            }
        memcpy(f, next, cells * sizeof *f);
    }
    /* Largest blend of (smoothed - original) that does not steepen anything. */
    int max_before = grid_max_slope(&g, g.h);
    float lo = 0.0f, hi = 1.0f;
    for (int step = 0; step < 10; step++) {
        float t = step == 0 ? 1.0f : 0.5f * (lo + hi);
        for (size_t i = 0; i < cells; i++)
            out[i] = g.h[i] < 0 ? -1 : clamp_height((int)lroundf((float)g.h[i] + t * (f[i] - (float)g.h[i])));
        if (grid_max_slope(&g, out) <= max_before) {
            lo = t;
            if (step == 0) break;
        } else {
            hi = t;
        }
    }
    for (size_t i = 0; i < cells; i++)
        out[i] = g.h[i] < 0 ? -1 : clamp_height((int)lroundf((float)g.h[i] + lo * (f[i] - (float)g.h[i])));
    int n = 0;
    editor_begin_action(e);
    for (int j = 0; j < g.side; j++)
        for (int i = 0; i < g.side; i++) {
            int k = j * g.side + i;
            if (g.h[k] >= 0 && out[k] != g.h[k]) n += set_column(e, x - g.half + i, z - g.half + j, g.h[k], out[k]);
        }
    editor_end_action(e);
    free(f), free(next), free(out), free(g.h);
    if (changed) *changed = n;
    return ST_OK;
}

StResult terrain_tool_paint_layer(Editor *e, int x, int z, int radius, int block, float opacity, ToolFalloff falloff,
                                  uint64_t seed, int *changed)
{
    if (changed) *changed = 0;
    StResult rc = check_radius("paint", radius);
    if (rc != ST_OK) return rc;
    if (!block_is_defined(editor_blocks(e), block) || block == BLOCK_AIR)
        return st_fail(ST_ERR_ARG, "paint: block %d is not a defined block other than air", block);
    if (!(opacity >= 0.0f && opacity <= 1.0f))
        return st_fail(ST_ERR_ARG, "paint: opacity %g is outside 0..1", (double)opacity);
    int n = 0;
    editor_begin_action(e);
    for (int dz = -radius; dz <= radius; dz++)
        for (int dx = -radius; dx <= radius; dx++) {
            if (dx * dx + dz * dz > radius * radius) continue;
            float p = opacity * terrain_tool_falloff(falloff, sqrtf((float)(dx * dx + dz * dz)), (float)radius);
            float u = (float)(rng_hash2(seed, x + dx, z + dz) >> 40) / (float)(1u << 24);
            if (u >= p) continue;
            int h = terrain_tool_surface_height(e, x + dx, z + dz);
            if (h < 0) continue;
            n += editor_change_cell(e, x + dx, h, z + dz, cell_make(block, 0));
        }
    editor_end_action(e);
    if (changed) *changed = n;
    return ST_OK;
}
