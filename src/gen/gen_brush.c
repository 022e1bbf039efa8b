/* gen_brush.c — the generator's small brush: a set of relative cells, built once (from the seed, at
 * generator creation) and painted many times into single chunks.
 *
 * Design: building needs "is there a cell at (x,y,z)?" (tree leaves grow next to wood), so the builder
 * keeps an open-addressing hash over its cells. A compiled brush is a flat array sorted by (z, x, y)
 * plus its bounds; painting clips every cell to the one chunk being generated (Survivalcraft's
 * PaintFast), which is what keeps border-crossing features order independent: each chunk paints only
 * its own cells, and the decision for a cell depends only on that cell. */
#include "gen_internal.h"

#include <stdlib.h>
#include <string.h>

static uint32_t builder_hash(int x, int y, int z)
{
    uint32_t h = (uint32_t)x * 73856093u ^ (uint32_t)y * 19349663u ^ (uint32_t)z * 83492791u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h;
}

void gen_builder_init(GenBrushBuilder *b)
{
    memset(b, 0, sizeof *b);
}

void gen_builder_free(GenBrushBuilder *b)
{
    free(b->cells);
    free(b->slots);
    memset(b, 0, sizeof *b);
}

void gen_builder_clear(GenBrushBuilder *b)
{
    b->count = 0;
    if (b->slots)
        memset(b->slots, 0xFF, sizeof(int32_t) * (size_t)b->slot_cap);
}

static void builder_rehash(GenBrushBuilder *b, int slot_cap)
{
    int32_t *slots = malloc(sizeof(int32_t) * (size_t)slot_cap);
    if (!slots)
        abort(); /* brushes are built at creation from a few KB; running out here is not recoverable */
    memset(slots, 0xFF, sizeof(int32_t) * (size_t)slot_cap);
    for (int i = 0; i < b->count; i++) {
        const GenBrushCell *c = &b->cells[i];
        uint32_t s = builder_hash(c->x, c->y, c->z) & (uint32_t)(slot_cap - 1);
        while (slots[s] >= 0)
            s = (s + 1) & (uint32_t)(slot_cap - 1);
        slots[s] = i;
    }
    free(b->slots);
    b->slots = slots;
    b->slot_cap = slot_cap;
}

int gen_builder_find(const GenBrushBuilder *b, int x, int y, int z)
{
    if (!b->slot_cap)
        return -1;
    uint32_t s = builder_hash(x, y, z) & (uint32_t)(b->slot_cap - 1);
    for (;;) {
        int32_t i = b->slots[s];
        if (i < 0)
            return -1;
        const GenBrushCell *c = &b->cells[i];
        if (c->x == x && c->y == y && c->z == z)
            return i;
        s = (s + 1) & (uint32_t)(b->slot_cap - 1);
    }
}

static void builder_put(GenBrushBuilder *b, int x, int y, int z, int32_t value, unsigned flags, bool only_empty)
{
    int i = gen_builder_find(b, x, y, z);
    if (i >= 0) {
        if (!only_empty) {
            b->cells[i].value = value;
            b->cells[i].flags = (uint16_t)flags;
        }
        return;
    }
    if (b->count + 1 > b->cap) {
        int cap = b->cap ? b->cap * 2 : 256;
        GenBrushCell *cells = realloc(b->cells, sizeof *cells * (size_t)cap);
        if (!cells)
            abort();
        b->cells = cells;
        b->cap = cap;
    }
    if ((b->count + 1) * 2 > b->slot_cap)
        builder_rehash(b, b->slot_cap ? b->slot_cap * 2 : 512);
    GenBrushCell *c = &b->cells[b->count];
    c->x = (int16_t)x;
    c->y = (int16_t)y;
    c->z = (int16_t)z;
    c->flags = (uint16_t)flags;
    c->value = value;
    uint32_t s = builder_hash(x, y, z) & (uint32_t)(b->slot_cap - 1);
    while (b->slots[s] >= 0)
        s = (s + 1) & (uint32_t)(b->slot_cap - 1);
    b->slots[s] = b->count;
    b->count++;
}

void gen_builder_set(GenBrushBuilder *b, int x, int y, int z, int32_t value, unsigned flags)
{
    builder_put(b, x, y, z, value, flags, false);
}

void gen_builder_set_if_empty(GenBrushBuilder *b, int x, int y, int z, int32_t value, unsigned flags)
{
    builder_put(b, x, y, z, value, flags, true);
}

void gen_builder_add_box(GenBrushBuilder *b, int x, int y, int z, int sx, int sy, int sz, int32_t value)
{
    for (int k = 0; k < sz; k++)
        for (int i = 0; i < sx; i++)
            for (int j = 0; j < sy; j++)
                builder_put(b, x + i, y + j, z + k, value, 0, false);
}

static int iabs(int v) { return v < 0 ? -v : v; }

void gen_builder_add_ray(GenBrushBuilder *b, int x1, int y1, int z1, int x2, int y2, int z2, int32_t value,
                         bool only_empty)
{
    int dx = x2 - x1, dy = y2 - y1, dz = z2 - z1;
    int steps = iabs(dx);
    if (iabs(dy) > steps) steps = iabs(dy);
    if (iabs(dz) > steps) steps = iabs(dz);
    if (steps == 0) {
        builder_put(b, x1, y1, z1, value, 0, only_empty);
        return;
    }
    for (int i = 0; i <= steps; i++) {
        /* integer rounding of the line (x1 + dx * i / steps), symmetric for negative deltas */
        int x = x1 + (dx * i * 2 + (dx >= 0 ? steps : -steps)) / (2 * steps);
        int y = y1 + (dy * i * 2 + (dy >= 0 ? steps : -steps)) / (2 * steps);
        int z = z1 + (dz * i * 2 + (dz >= 0 ? steps : -steps)) / (2 * steps);
        builder_put(b, x, y, z, value, 0, only_empty);
    }
}

void gen_builder_bounds(const GenBrushBuilder *b, int *min_x, int *min_y, int *min_z, int *max_x, int *max_y,
                        int *max_z)
{
    int a = 0, c = 0, d = 0, e = 0, f = 0, h = 0;
    for (int i = 0; i < b->count; i++) {
        const GenBrushCell *cell = &b->cells[i];
        if (i == 0 || cell->x < a) a = cell->x;
        if (i == 0 || cell->y < c) c = cell->y;
        if (i == 0 || cell->z < d) d = cell->z;
        if (i == 0 || cell->x > e) e = cell->x;
        if (i == 0 || cell->y > f) f = cell->y;
        if (i == 0 || cell->z > h) h = cell->z;
    }
    *min_x = a; *min_y = c; *min_z = d; *max_x = e; *max_y = f; *max_z = h;
}

void gen_builder_replace(GenBrushBuilder *b, int32_t from, int32_t to)
{
    for (int i = 0; i < b->count; i++)
        if (b->cells[i].value == from)
            b->cells[i].value = to;
}

static int cell_order(const void *pa, const void *pb)
{
    const GenBrushCell *a = pa, *b = pb;
    if (a->z != b->z) return a->z - b->z;
    if (a->x != b->x) return a->x - b->x;
    return a->y - b->y;
}

StResult gen_brush_compile(const GenBrushBuilder *b, GenBrush *out)
{
    memset(out, 0, sizeof *out);
    if (b->count == 0)
        return ST_OK;
    out->cells = malloc(sizeof *out->cells * (size_t)b->count);
    if (!out->cells)
        return st_fail(ST_ERR_NOMEM, "gen: brush of %d cells", b->count);
    memcpy(out->cells, b->cells, sizeof *out->cells * (size_t)b->count);
    out->count = b->count;
    qsort(out->cells, (size_t)out->count, sizeof *out->cells, cell_order);
    gen_builder_bounds(b, &out->min_x, &out->min_y, &out->min_z, &out->max_x, &out->max_y, &out->max_z);
    int rows = out->max_z - out->min_z + 1;
    out->z_rows = malloc(sizeof(int) * (size_t)(rows + 1));
    if (!out->z_rows) {
        gen_brush_free(out);
        return st_fail(ST_ERR_NOMEM, "gen: brush rows");
    }
    int i = 0;
    for (int r = 0; r <= rows; r++) {
        while (i < out->count && out->cells[i].z < out->min_z + r)
            i++;
        out->z_rows[r] = i;
    }
    return ST_OK;
}

void gen_brush_free(GenBrush *brush)
{
    free(brush->cells);
    free(brush->z_rows);
    memset(brush, 0, sizeof *brush);
}

/* Shared clipping loop: only the brush's z rows inside the chunk are visited; `BODY` decides per cell,
 * with `cell` pointing at the chunk cell and `c_` at the brush cell. */
#define BRUSH_CLIPPED_LOOP(brush, chunk, x, y, z, BODY)                                              \
    do {                                                                                             \
        int lx_ = (x) - (chunk)->origin_x, lz_ = (z) - (chunk)->origin_z, y_ = (y);                  \
        if ((brush)->count == 0 || lx_ + (brush)->max_x < 0 || lx_ + (brush)->min_x > 15 ||          \
            lz_ + (brush)->max_z < 0 || lz_ + (brush)->min_z > 15 || y_ + (brush)->max_y < 0 ||      \
            y_ + (brush)->min_y > 255)                                                               \
            break;                                                                                   \
        int z0_ = -lz_ > (brush)->min_z ? -lz_ : (brush)->min_z;                                     \
        int z1_ = 15 - lz_ < (brush)->max_z ? 15 - lz_ : (brush)->max_z;                             \
        const GenBrushCell *c_ = (brush)->cells + (brush)->z_rows[z0_ - (brush)->min_z];             \
        const GenBrushCell *end_ = (brush)->cells + (brush)->z_rows[z1_ - (brush)->min_z + 1];       \
        for (; c_ < end_; c_++) {                                                                    \
            int cx_ = lx_ + c_->x, cy_ = y_ + c_->y, cz_ = lz_ + c_->z;                              \
            if ((unsigned)cx_ > 15u || (unsigned)cy_ > 255u)                                         \
                continue;                                                                            \
            int32_t *cell = &(chunk)->cells[CHUNK_INDEX(cx_, cy_, cz_)];                             \
            BODY                                                                                     \
        }                                                                                            \
    } while (0)

void gen_brush_paint_selective(const GenBrush *brush, TerrainChunk *chunk, int x, int y, int z, int host)
{
    BRUSH_CLIPPED_LOOP(brush, chunk, x, y, z, {
        if (cell_contents(*cell) == host)
            *cell = c_->value;
    });
}

void gen_brush_paint_into(const GenBrush *brush, TerrainChunk *chunk, int x, int y, int z,
                          const uint8_t *replaceable)
{
    BRUSH_CLIPPED_LOOP(brush, chunk, x, y, z, {
        if ((c_->flags & GEN_BRUSH_FORCE) || replaceable[cell_contents(*cell)])
            *cell = c_->value;
    });
}
