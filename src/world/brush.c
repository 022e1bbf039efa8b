/* brush.c — TerrainBrush: building (a small position hash), compiling (sort by z, x, y) and painting into
 * one chunk, clipped to it.
 *
 * Design: building needs "is there a cell at (x, y, z)?" (tree leaves grow next to wood, later values
 * replace earlier ones), so the builder keeps an open-addressing hash over its cells, at most half full.
 * A compiled brush is a flat array sorted by (z, x, y) plus its bounds and a row index by z: painting
 * skips the z rows outside the chunk outright and clips the rest per cell (Survivalcraft's PaintFast), and
 * walks the chunk's cells through a CellView. Out of memory while building is remembered, not fatal: the
 * cell is dropped and brush_compile reports it, so a generator fails its creation cleanly. Handler cells
 * (BRUSH_CELL_HANDLER) keep a handler id in `value`; the compiled brush copies the handler table, and the
 * chunk paint loops resolve a cell through brush_cell_value only when the flag is set, so fixed-value brushes
 * (all of generation's) paint exactly as before. Counters and Paint on a BrushWorld are in brush_paint.c. */
#include "strata/brush.h"

#include <stdlib.h>
#include <string.h>

#include "strata/block.h"
#include "strata/rng.h"

/* The three 16-bit coordinates as one 48-bit key through rng.h's 64-bit mix: every bit of the key reaches the
 * low bits the table uses (with the sum-of-products hash before it, building the generator's trees and ores
 * took ~10% longer). */
static uint32_t brush_hash(int x, int y, int z)
{
    uint64_t key = (uint64_t)(uint16_t)x | (uint64_t)(uint16_t)y << 16 | (uint64_t)(uint16_t)z << 32;
    return (uint32_t)rng_mix64_inline(key);
}

void brush_init(TerrainBrush *b)
{
    memset(b, 0, sizeof *b);
}

void brush_free(TerrainBrush *b)
{
    free(b->cells);
    free(b->slots);
    free(b->handlers);
    memset(b, 0, sizeof *b);
}

void brush_clear(TerrainBrush *b)
{
    b->count = 0;
    b->handler_count = 0;
    b->out_of_memory = false;
    if (b->slots)
        memset(b->slots, 0xFF, sizeof(int32_t) * (size_t)b->slot_cap);
}

static bool brush_rehash(TerrainBrush *b, int slot_cap)
{
    int32_t *slots = malloc(sizeof(int32_t) * (size_t)slot_cap);
    if (!slots)
        return false;
    memset(slots, 0xFF, sizeof(int32_t) * (size_t)slot_cap);
    const BrushCell *c = b->cells;
    for (int i = 0; i < b->count; i++, c++) {
        uint32_t s = brush_hash(c->x, c->y, c->z) & (uint32_t)(slot_cap - 1);
        while (slots[s] >= 0)
            s = (s + 1) & (uint32_t)(slot_cap - 1);
        slots[s] = i;
    }
    free(b->slots);
    b->slots = slots;
    b->slot_cap = slot_cap;
    return true;
}

/* The cell at (x, y, z) or NULL. */
static BrushCell *brush_lookup(const TerrainBrush *b, int x, int y, int z)
{
    if (!b->slot_cap)
        return NULL;
    uint32_t s = brush_hash(x, y, z) & (uint32_t)(b->slot_cap - 1);
    for (;;) {
        int32_t i = b->slots[s];
        if (i < 0)
            return NULL;
        BrushCell *c = b->cells + i;
        if (c->x == x && c->y == y && c->z == z)
            return c;
        s = (s + 1) & (uint32_t)(b->slot_cap - 1);
    }
}

const BrushCell *brush_find(const TerrainBrush *b, int x, int y, int z)
{
    return brush_lookup(b, x, y, z);
}

static void brush_put(TerrainBrush *b, int x, int y, int z, int32_t value, unsigned flags, bool only_empty)
{
    BrushCell *found = brush_lookup(b, x, y, z);
    if (found) {
        if (!only_empty) {
            found->value = value;
            found->flags = (uint16_t)flags;
        }
        return;
    }
    if (b->count + 1 > b->cap) {
        int cap = b->cap ? b->cap * 2 : 256;
        BrushCell *cells = realloc(b->cells, sizeof *cells * (size_t)cap);
        if (!cells) {
            b->out_of_memory = true;
            return;
        }
        b->cells = cells;
        b->cap = cap;
    }
    if ((b->count + 1) * 2 > b->slot_cap && !brush_rehash(b, b->slot_cap ? b->slot_cap * 2 : 512)) {
        b->out_of_memory = true;
        return;
    }
    BrushCell *c = b->cells + b->count;
    c->x = (int16_t)x;
    c->y = (int16_t)y;
    c->z = (int16_t)z;
    c->flags = (uint16_t)flags;
    c->value = value;
    uint32_t s = brush_hash(x, y, z) & (uint32_t)(b->slot_cap - 1);
    while (b->slots[s] >= 0)
        s = (s + 1) & (uint32_t)(b->slot_cap - 1);
    b->slots[s] = b->count;
    b->count++;
}

void brush_add_cell(TerrainBrush *b, int x, int y, int z, int32_t value, unsigned flags)
{
    brush_put(b, x, y, z, value, flags, false);
}

void brush_add_cell_if_empty(TerrainBrush *b, int x, int y, int z, int32_t value, unsigned flags)
{
    brush_put(b, x, y, z, value, flags, true);
}

void brush_add_box(TerrainBrush *b, int x, int y, int z, int sx, int sy, int sz, int32_t value)
{
    for (int k = 0; k < sz; k++)
        for (int i = 0; i < sx; i++)
            for (int j = 0; j < sy; j++)
                brush_put(b, x + i, y + j, z + k, value, 0, false);
}

static int iabs(int v) { return v < 0 ? -v : v; }

static void ray_put(TerrainBrush *b, int x, int y, int z, const int size[3], int32_t value, bool only_empty)
{
    if (!size) {
        brush_put(b, x, y, z, value, 0, only_empty);
        return;
    }
    brush_add_box(b, x - size[0] / 2, y - size[1] / 2, z - size[2] / 2, size[0], size[1], size[2], value);
}

static void brush_ray(TerrainBrush *b, int x1, int y1, int z1, int x2, int y2, int z2, const int size[3],
                      int32_t value, bool only_empty)
{
    int dx = x2 - x1, dy = y2 - y1, dz = z2 - z1;
    int steps = iabs(dx);
    if (iabs(dy) > steps) steps = iabs(dy);
    if (iabs(dz) > steps) steps = iabs(dz);
    if (steps == 0) {
        ray_put(b, x1, y1, z1, size, value, only_empty);
        return;
    }
    for (int i = 0; i <= steps; i++) {
        /* integer rounding of the line (x1 + dx * i / steps), symmetric for negative deltas */
        int x = x1 + (dx * i * 2 + (dx >= 0 ? steps : -steps)) / (2 * steps);
        int y = y1 + (dy * i * 2 + (dy >= 0 ? steps : -steps)) / (2 * steps);
        int z = z1 + (dz * i * 2 + (dz >= 0 ? steps : -steps)) / (2 * steps);
        ray_put(b, x, y, z, size, value, only_empty);
    }
}

void brush_add_ray(TerrainBrush *b, int x1, int y1, int z1, int x2, int y2, int z2, int32_t value, bool only_empty)
{
    brush_ray(b, x1, y1, z1, x2, y2, z2, NULL, value, only_empty);
}

void brush_add_ray_box(TerrainBrush *b, int x1, int y1, int z1, int x2, int y2, int z2, int sx, int sy, int sz,
                       int32_t value)
{
    int size[3] = {sx, sy, sz};
    brush_ray(b, x1, y1, z1, x2, y2, z2, size, value, false);
}

void brush_bounds(const TerrainBrush *b, int *min_x, int *min_y, int *min_z, int *max_x, int *max_y, int *max_z)
{
    int a = 0, c = 0, d = 0, e = 0, f = 0, h = 0;
    const BrushCell *cell = b->cells;
    for (int i = 0; i < b->count; i++, cell++) {
        if (i == 0 || cell->x < a) a = cell->x;
        if (i == 0 || cell->y < c) c = cell->y;
        if (i == 0 || cell->z < d) d = cell->z;
        if (i == 0 || cell->x > e) e = cell->x;
        if (i == 0 || cell->y > f) f = cell->y;
        if (i == 0 || cell->z > h) h = cell->z;
    }
    *min_x = a; *min_y = c; *min_z = d; *max_x = e; *max_y = f; *max_z = h;
}

void brush_replace_value(TerrainBrush *b, int32_t from, int32_t to)
{
    BrushCell *c = b->cells, *end = b->cells + b->count;
    for (; c < end; c++)
        if (c->value == from && !(c->flags & BRUSH_CELL_HANDLER))
            c->value = to;
}

static int brush_add_handler(TerrainBrush *b, BrushHandler h)
{
    if (b->handler_count == b->handler_cap) {
        int cap = b->handler_cap ? b->handler_cap * 2 : 4;
        BrushHandler *n = realloc(b->handlers, sizeof *n * (size_t)cap);
        if (!n) {
            b->out_of_memory = true;
            return -1;
        }
        b->handlers = n;
        b->handler_cap = cap;
    }
    b->handlers[b->handler_count] = h;
    return b->handler_count++;
}

int brush_add_value_handler(TerrainBrush *b, BrushValueHandler fn, void *user)
{
    return brush_add_handler(b, (BrushHandler){.on_value = fn, .user = user});
}

int brush_add_position_handler(TerrainBrush *b, BrushPositionHandler fn, void *user)
{
    return brush_add_handler(b, (BrushHandler){.on_position = fn, .user = user});
}

void brush_add_cell_handler(TerrainBrush *b, int x, int y, int z, int handler)
{
    if (handler < 0 || handler >= b->handler_count) {
        b->out_of_memory = true;
        return;
    }
    brush_put(b, x, y, z, handler, BRUSH_CELL_HANDLER, false);
}

void brush_add_box_handler(TerrainBrush *b, int x, int y, int z, int sx, int sy, int sz, int handler)
{
    for (int k = 0; k < sz; k++)
        for (int i = 0; i < sx; i++)
            for (int j = 0; j < sy; j++)
                brush_add_cell_handler(b, x + i, y + j, z + k, handler);
}

static int cell_order(const void *pa, const void *pb)
{
    const BrushCell *a = pa, *b = pb;
    if (a->z != b->z) return a->z - b->z;
    if (a->x != b->x) return a->x - b->x;
    return a->y - b->y;
}

/* One stable counting pass: cells from `from` into `to` ordered by one coordinate (offset 0 x, 1 y, 2 z) whose
 * values lie in lo..lo + range - 1; counts has room for range + 1. */
static void brush_count_pass(const BrushCell *from, BrushCell *to, int n, int axis, int lo, int range, int *counts)
{
    memset(counts, 0, sizeof *counts * (size_t)(range + 1));
    for (int i = 0; i < n; i++)
        counts[(axis == 0 ? from[i].x : axis == 1 ? from[i].y : from[i].z) - lo + 1]++;
    for (int k = 1; k <= range; k++)
        counts[k] += counts[k - 1];
    for (int i = 0; i < n; i++)
        to[counts[(axis == 0 ? from[i].x : axis == 1 ? from[i].y : from[i].z) - lo]++] = from[i];
}

/* Sorts the cells in z, x, y order (cell_order): three stable counting passes, y then x then z, over the
 * brush's bounds. Positions are unique, so this is the order qsort gave, for a fifth of its time (trees and
 * ores are compiled at every world start: qsort was a quarter of the generator's ~20 ms). A brush whose
 * bounds are very wide, or no memory for the scratch, falls back to qsort. */
static void brush_sort_cells(CompiledBrush *out)
{
    int range[3] = { out->max_x - out->min_x + 1, out->max_y - out->min_y + 1, out->max_z - out->min_z + 1 };
    int lo[3] = { out->min_x, out->min_y, out->min_z };
    int widest = range[0] > range[1] ? range[0] : range[1];
    widest = widest > range[2] ? widest : range[2];
    BrushCell *scratch = widest <= 4 * out->count + 1024 ? malloc(sizeof *scratch * (size_t)out->count) : NULL;
    int *counts = scratch ? malloc(sizeof *counts * (size_t)(widest + 1)) : NULL;
    if (!counts) {
        free(scratch);
        qsort(out->cells, (size_t)out->count, sizeof *out->cells, cell_order);
        return;
    }
    brush_count_pass(out->cells, scratch, out->count, 1, lo[1], range[1], counts);
    brush_count_pass(scratch, out->cells, out->count, 0, lo[0], range[0], counts);
    brush_count_pass(out->cells, scratch, out->count, 2, lo[2], range[2], counts);
    memcpy(out->cells, scratch, sizeof *out->cells * (size_t)out->count);
    free(counts);
    free(scratch);
}

StResult brush_compile(const TerrainBrush *b, CompiledBrush *out)
{
    memset(out, 0, sizeof *out);
    if (b->out_of_memory)
        return st_fail(ST_ERR_NOMEM, "brush: out of memory while building (%d cells kept)", b->count);
    if (b->count == 0)
        return ST_OK;
    out->cells = malloc(sizeof *out->cells * (size_t)b->count);
    if (!out->cells)
        return st_fail(ST_ERR_NOMEM, "brush: compiling %d cells", b->count);
    memcpy(out->cells, b->cells, sizeof *out->cells * (size_t)b->count);
    out->count = b->count;
    if (b->handler_count > 0) {
        out->handlers = malloc(sizeof *out->handlers * (size_t)b->handler_count);
        if (!out->handlers) {
            brush_compiled_free(out);
            return st_fail(ST_ERR_NOMEM, "brush: %d handlers", b->handler_count);
        }
        memcpy(out->handlers, b->handlers, sizeof *out->handlers * (size_t)b->handler_count);
        out->handler_count = b->handler_count;
    }
    /* Cells are unique positions, so the order is the same however it is reached; shapes add their cells in
     * z, x, y order already, and a brush that is sorted skips the sort. */
    brush_bounds(b, &out->min_x, &out->min_y, &out->min_z, &out->max_x, &out->max_y, &out->max_z);
    bool sorted_already = true;
    for (int k = 1; k < out->count && sorted_already; k++)
        sorted_already = cell_order(&out->cells[k - 1], &out->cells[k]) < 0;
    if (!sorted_already) brush_sort_cells(out);
    int rows = out->max_z - out->min_z + 1;
    out->z_rows = malloc(sizeof(int) * (size_t)(rows + 1));
    if (!out->z_rows) {
        brush_compiled_free(out);
        return st_fail(ST_ERR_NOMEM, "brush: row index of %d rows", rows);
    }
    const BrushCell *sorted = out->cells;
    int i = 0;
    for (int r = 0; r <= rows; r++) {
        while (i < out->count && sorted[i].z < out->min_z + r)
            i++;
        out->z_rows[r] = i;
    }
    return ST_OK;
}

void brush_compiled_free(CompiledBrush *brush)
{
    free(brush->cells);
    free(brush->z_rows);
    free(brush->handlers);
    memset(brush, 0, sizeof *brush);
}

/* ---- painting ---- */

/* The shared clipping loop: only the brush's z rows inside the chunk are visited; `BODY` decides per cell,
 * with `cell` the chunk's cell value, `c_` the brush cell, and writes with PAINT_CELL(value). (Reading and
 * writing by coordinates, cell_view_get / cell_view_set, lets the compiler share one index computation.) */
#define BRUSH_CLIPPED_LOOP(brush, chunk, x, y, z, BODY)                                              \
    do {                                                                                             \
        int lx_ = (x) - (chunk)->origin_x, lz_ = (z) - (chunk)->origin_z, y_ = (y);                  \
        if ((brush)->count == 0 || lx_ + (brush)->max_x < 0 || lx_ + (brush)->min_x > 15 ||          \
            lz_ + (brush)->max_z < 0 || lz_ + (brush)->min_z > 15 || y_ + (brush)->max_y < 0 ||      \
            y_ + (brush)->min_y > 255)                                                               \
            break;                                                                                   \
        CellView view_ = chunk_cell_view(chunk);                                                     \
        CellViewConst cview_ = chunk_cell_view_const(chunk);                                         \
        int z0_ = -lz_ > (brush)->min_z ? -lz_ : (brush)->min_z;                                     \
        int z1_ = 15 - lz_ < (brush)->max_z ? 15 - lz_ : (brush)->max_z;                             \
        const BrushCell *c_ = (brush)->cells + (brush)->z_rows[z0_ - (brush)->min_z];                \
        const BrushCell *end_ = (brush)->cells + (brush)->z_rows[z1_ - (brush)->min_z + 1];          \
        for (; c_ < end_; c_++) {                                                                    \
            int cx_ = lx_ + c_->x, cy_ = y_ + c_->y, cz_ = lz_ + c_->z;                              \
            if ((unsigned)cx_ > 15u || (unsigned)cy_ > 255u)                                         \
                continue;                                                                            \
            int32_t cell = cell_view_get(cview_, cx_, cy_, cz_);                                     \
            BODY                                                                                     \
        }                                                                                            \
    } while (0)

/* Paints the brush cell c_ over `cell`: its fixed value, or its handler's answer unless that is "leave". */
#define PAINT_CELL()                                                                                 \
    do {                                                                                             \
        int32_t v_ = c_->value;                                                                      \
        if (!(c_->flags & BRUSH_CELL_HANDLER) ||                                                     \
            brush_cell_value(brush, c_, cell, (chunk)->origin_x + cx_, cy_, (chunk)->origin_z + cz_, &v_)) \
            cell_view_set(view_, cx_, cy_, cz_, v_);                                                 \
    } while (0)

void brush_paint_fast(const CompiledBrush *brush, TerrainChunk *chunk, int x, int y, int z)
{
    BRUSH_CLIPPED_LOOP(brush, chunk, x, y, z, {
        (void)cell;
        PAINT_CELL();
    });
}

void brush_paint_selective(const CompiledBrush *brush, TerrainChunk *chunk, int x, int y, int z, int only_contents)
{
    BRUSH_CLIPPED_LOOP(brush, chunk, x, y, z, {
        if (cell_contents(cell) == only_contents)
            PAINT_CELL();
    });
}

void brush_paint_into(const CompiledBrush *brush, TerrainChunk *chunk, int x, int y, int z,
                      const uint8_t *replaceable)
{
    BRUSH_CLIPPED_LOOP(brush, chunk, x, y, z, {
        if ((c_->flags & BRUSH_CELL_FORCE) || replaceable[cell_contents(cell)])
            PAINT_CELL();
    });
}

static bool water_near(CellViewConst v, int x, int y, int z)
{
    if (cell_contents(cell_view_get(v, x, y, z)) == BLOCK_WATER) return true;
    if (x > 0 && cell_contents(cell_view_get(v, x - 1, y, z)) == BLOCK_WATER) return true;
    if (x < 15 && cell_contents(cell_view_get(v, x + 1, y, z)) == BLOCK_WATER) return true;
    if (z > 0 && cell_contents(cell_view_get(v, x, y, z - 1)) == BLOCK_WATER) return true;
    if (z < 15 && cell_contents(cell_view_get(v, x, y, z + 1)) == BLOCK_WATER) return true;
    if (y > 0 && cell_contents(cell_view_get(v, x, y - 1, z)) == BLOCK_WATER) return true;
    return y < 255 && cell_contents(cell_view_get(v, x, y + 1, z)) == BLOCK_WATER;
}

void brush_paint_avoid_water(const CompiledBrush *brush, TerrainChunk *chunk, int x, int y, int z)
{
    BRUSH_CLIPPED_LOOP(brush, chunk, x, y, z, {
        if (!water_near(cview_, cx_, cy_, cz_))
            PAINT_CELL();
    });
}
