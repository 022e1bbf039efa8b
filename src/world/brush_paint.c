/* brush_paint.c — the TerrainBrush on a world seen through callbacks: counters and Paint.
 *
 * Design: a BrushWorld is two callbacks (get_cell, set_cell) and a user pointer, so the brush (world layer)
 * paints through whatever the caller provides without knowing it: the edit layer hands one that goes
 * through the Editor's ChangeCell (history, notifications, downgrades), tests hand a fake, and
 * brush_world_of_chunk wraps a single chunk through the _shared accessors (chunk.h), so it neither unpacks
 * a cold chunk nor races the update worker on a live one. Every function walks the compiled cells in their
 * (z, x, y) order and reads the target only when something depends on it (a value handler, a predicate, a counter);
 * a fixed cell painted everywhere is a plain set_cell, and the world's own compare decides whether it
 * changed. Values are compared with their light bits cleared (light is not part of a cell's identity). */
#include "strata/brush.h"

#include <stddef.h>

static int32_t chunk_world_get(void *user, int x, int y, int z)
{
    const TerrainChunk *c = user;
    int lx = x - c->origin_x, lz = z - c->origin_z;
    if ((unsigned)lx > 15u || (unsigned)lz > 15u || (unsigned)y > 255u) return -1;
    return chunk_get_cell_shared(c, lx, y, lz);
}

static bool chunk_world_set(void *user, int x, int y, int z, int32_t value)
{
    TerrainChunk *c = user;
    int lx = x - c->origin_x, lz = z - c->origin_z;
    if ((unsigned)lx > 15u || (unsigned)lz > 15u || (unsigned)y > 255u) return false;
    if (chunk_get_cell_shared(c, lx, y, lz) == value) return false;
    chunk_set_cell_shared(c, lx, y, lz, value);
    return true;
}

BrushWorld brush_world_of_chunk(TerrainChunk *chunk)
{
    BrushWorld w = {.user = chunk, .get_cell = chunk_world_get, .set_cell = chunk_world_set};
    return w;
}

/* ---- counters ---- */

enum CountKind { COUNT_VALUE, COUNT_MATCH, COUNT_POSITION };

static int brush_count(const CompiledBrush *b, const BrushWorld *w, int x, int y, int z, enum CountKind kind,
                       int32_t value, BrushMatch match, BrushPositionMatch pmatch, void *user)
{
    int n = 0;
    const BrushCell *c = b->cells, *end = b->cells + b->count;
    for (; c < end; c++) {
        int wx = x + c->x, wy = y + c->y, wz = z + c->z;
        int32_t cur = w->get_cell(w->user, wx, wy, wz);
        if (cur == -1) continue;
        switch (kind) {
        case COUNT_VALUE: n += (cur & ~CELL_LIGHT_MASK) == value; break;
        case COUNT_MATCH: n += match(user, cur); break;
        case COUNT_POSITION: n += pmatch(user, wx, wy, wz); break;
        }
    }
    return n;
}

int brush_count_value(const CompiledBrush *b, const BrushWorld *w, int x, int y, int z, int32_t value)
{
    return brush_count(b, w, x, y, z, COUNT_VALUE, value & ~CELL_LIGHT_MASK, NULL, NULL, NULL);
}

int brush_count_match(const CompiledBrush *b, const BrushWorld *w, int x, int y, int z, BrushMatch match, void *user)
{
    return brush_count(b, w, x, y, z, COUNT_MATCH, 0, match, NULL, user);
}

int brush_count_position(const CompiledBrush *b, const BrushWorld *w, int x, int y, int z, BrushPositionMatch match,
                         void *user)
{
    return brush_count(b, w, x, y, z, COUNT_POSITION, 0, NULL, match, user);
}

/* ---- paint ---- */

int brush_paint_where(const CompiledBrush *b, const BrushWorld *w, int x, int y, int z, BrushMatch only, void *user)
{
    int n = 0;
    const BrushCell *c = b->cells, *end = b->cells + b->count;
    for (; c < end; c++) {
        int wx = x + c->x, wy = y + c->y, wz = z + c->z;
        int32_t cur = -1, value = c->value;
        if (only || (c->flags & BRUSH_CELL_HANDLER)) {
            cur = w->get_cell(w->user, wx, wy, wz);
            if (cur == -1 || (only && !only(user, cur))) continue;
            if (!brush_cell_value(b, c, cur, wx, wy, wz, &value)) continue;
        }
        n += w->set_cell(w->user, wx, wy, wz, value);
    }
    return n;
}

int brush_paint(const CompiledBrush *b, const BrushWorld *w, int x, int y, int z)
{
    return brush_paint_where(b, w, x, y, z, NULL, NULL);
}
