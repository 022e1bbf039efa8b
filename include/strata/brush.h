/* brush.h — TerrainBrush: a set of cells at relative coordinates, built once and painted many times into
 * chunks (Survivalcraft's TerrainBrush). The generator's caves, ore veins, pockets and trees are brushes.
 *
 * Two types, one per phase:
 *   TerrainBrush   the brush under construction: add cells (brush_add_cell, brush_add_box, brush_add_ray),
 *                  look them up (brush_find), rewrite values (brush_replace_value). A later value for the
 *                  same position replaces the earlier one (except through the _if_empty / only_empty forms).
 *   CompiledBrush  the frozen, paint-ready form made by brush_compile: the cells sorted by (z, x, y), their
 *                  bounds and a row index by z, so painting visits only the rows that meet a chunk.
 * A compiled brush owns its own copy of the cells; the TerrainBrush may be cleared and reused for the next
 * brush (the generator builds hundreds of brushes through one TerrainBrush).
 *
 * Coordinates: a cell's (x, y, z) is relative to the brush origin and must fit in int16 (-32768..32767).
 * Painting takes the origin in world coordinates and writes only the cells of the one chunk it is given
 * that fall inside it (local x, z 0..15, y 0..255); the rest are skipped. That clipping is what keeps
 * features that cross chunk borders order independent: every chunk a brush touches paints its own part,
 * and the decision for a cell depends only on that cell.
 *
 * Values, handlers and flags (Survivalcraft's three kinds of Brush): a cell carries either a fixed value (a
 * whole cell value, cell.h: contents and data, light 0, written as is), or a handler: a function of the
 * target's current value, or of the cell's world position, that returns the value to paint or "leave"
 * (false: the target is not touched). A handler is registered once per brush (brush_add_value_handler /
 * brush_add_position_handler give its id) and shared by any number of cells (brush_add_cell_handler); such
 * a cell has BRUSH_CELL_HANDLER set and its `value` is the handler id. Each cell also carries 16 bits of
 * flags: BRUSH_CELL_FORCE (brush_paint_into) and BRUSH_CELL_HANDLER; the rest are reserved.
 *
 * Counters and world painting (brush_paint.c): a BrushWorld is any cell store seen through two callbacks
 * (get_cell, set_cell). Counters count the cells of the brush placed at (x, y, z) whose current value
 * matches a value, a value predicate or a position predicate; brush_paint / brush_paint_where write the
 * brush through set_cell (the edit layer gives a BrushWorld that goes through the Editor's ChangeCell, so a
 * stroke is recorded and notifies behaviours; brush_world_of_chunk gives one over a single chunk). The
 * brush knows nothing of the layers above it.
 *
 * Ownership: brush_init / brush_free and brush_compile / brush_compiled_free are the pairs; both structs are
 * plain values owned by the caller. Building cannot fail halfway: when memory runs out the brush remembers
 * it (out_of_memory), drops further cells, and brush_compile then returns ST_ERR_NOMEM.
 * Threads: a TerrainBrush is used by one thread at a time. A CompiledBrush is immutable: any number of
 * threads may paint it at once, each into a chunk it holds (the chunk's cells are written plainly, as the
 * generator does on a chunk no other thread sees). */
#ifndef STRATA_BRUSH_H
#define STRATA_BRUSH_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/chunk.h"
#include "strata/error.h"

/* brush_paint_into: this cell is painted whatever its target holds (a tree's root replaces the ground). */
#define BRUSH_CELL_FORCE 0x1u
/* The cell's value is a handler id (see brush_add_cell_handler), not a cell value. */
#define BRUSH_CELL_HANDLER 0x2u

/* Handlers return true with the value to paint in *out, or false to leave the target as it is. `current`
 * is the target's cell value (light bits as stored); (x, y, z) are world coordinates. */
typedef bool (*BrushValueHandler)(void *user, int32_t current, int32_t *out);
typedef bool (*BrushPositionHandler)(void *user, int x, int y, int z, int32_t *out);

typedef struct BrushHandler {
    BrushValueHandler on_value;         /* exactly one of the two is set */
    BrushPositionHandler on_position;
    void *user;                         /* borrowed: must outlive every compiled brush that uses it */
} BrushHandler;

typedef struct BrushCell {
    int16_t x, y, z;     /* relative to the brush origin */
    uint16_t flags;      /* BRUSH_CELL_* */
    int32_t value;       /* the cell value painted */
} BrushCell;

/* The brush under construction. Fields are the implementation's; read them only through the functions. */
typedef struct TerrainBrush {
    BrushCell *cells;    /* in insertion order */
    int count, cap;
    int32_t *slots;      /* open addressing over cells by position, -1 = empty */
    int slot_cap;
    bool out_of_memory;  /* a cell was dropped: brush_compile fails */
    BrushHandler *handlers;
    int handler_count, handler_cap;
} TerrainBrush;

/* The paint-ready brush. Read-only after brush_compile; the fields may be read directly (a feature that
 * paints with its own per-cell rule walks cells[0..count)). */
typedef struct CompiledBrush {
    BrushCell *cells;    /* sorted by (z, x, y) */
    int count;
    int min_x, min_y, min_z, max_x, max_y, max_z;   /* bounds of the cells, inclusive (all 0 when empty) */
    int *z_rows;         /* cells of row z are [z_rows[z - min_z], z_rows[z - min_z + 1]) */
    BrushHandler *handlers;  /* a copy of the brush's handler table (NULL when it has none) */
    int handler_count;
} CompiledBrush;

/* ---- building ---------------------------------------------------------------------------------------- */

/* An empty brush (allocates nothing yet). */
void brush_init(TerrainBrush *b);
/* Frees the brush's memory and leaves it empty (as brush_init); NULL-safe on the fields. */
void brush_free(TerrainBrush *b);
/* Removes every cell, keeping the memory for the next brush; clears out_of_memory. */
void brush_clear(TerrainBrush *b);
/* Sets the cell at (x, y, z) to value and flags, replacing any cell there. */
void brush_add_cell(TerrainBrush *b, int x, int y, int z, int32_t value, unsigned flags);
/* Sets the cell at (x, y, z) only if the brush has none there yet. */
void brush_add_cell_if_empty(TerrainBrush *b, int x, int y, int z, int32_t value, unsigned flags);
/* The box of sx * sy * sz cells with its lowest corner at (x, y, z), all `value`, flags 0 (replacing). */
void brush_add_box(TerrainBrush *b, int x, int y, int z, int sx, int sy, int sz, int32_t value);
/* The cells of the line from (x1, y1, z1) to (x2, y2, z2), both ends included, rounded symmetrically; flags 0.
 * `only_empty` keeps cells already there. */
void brush_add_ray(TerrainBrush *b, int x1, int y1, int z1, int x2, int y2, int z2, int32_t value, bool only_empty);
/* The cell at (x, y, z), or NULL. The pointer is valid until the next add. */
const BrushCell *brush_find(const TerrainBrush *b, int x, int y, int z);
/* Bounds of the cells so far, inclusive (all 0 for an empty brush). */
void brush_bounds(const TerrainBrush *b, int *min_x, int *min_y, int *min_z, int *max_x, int *max_y, int *max_z);
/* Every fixed cell whose value is `from` gets `to` (flags unchanged; handler cells are left alone). */
void brush_replace_value(TerrainBrush *b, int32_t from, int32_t to);
/* Registers a handler and returns its id (0, 1, ...), or -1 when out of memory (remembered: brush_compile
 * then fails). brush_clear forgets the handlers. */
int brush_add_value_handler(TerrainBrush *b, BrushValueHandler fn, void *user);
int brush_add_position_handler(TerrainBrush *b, BrushPositionHandler fn, void *user);
/* Sets the cell at (x, y, z) to handler `handler` (an id from this brush), replacing any cell there. A bad
 * id (-1 from an earlier failure) marks the brush out of memory. */
void brush_add_cell_handler(TerrainBrush *b, int x, int y, int z, int handler);
/* The box of sx * sy * sz cells with its lowest corner at (x, y, z), all on handler `handler`. */
void brush_add_box_handler(TerrainBrush *b, int x, int y, int z, int sx, int sy, int sz, int handler);
/* Survivalcraft's AddRay with a size: at every cell of the line from (x1, y1, z1) to (x2, y2, z2) (as
 * brush_add_ray) the box of sx * sy * sz cells centred there (lowest corner at -(s / 2)), all `value`. */
void brush_add_ray_box(TerrainBrush *b, int x1, int y1, int z1, int x2, int y2, int z2, int sx, int sy, int sz,
                       int32_t value);

/* ---- compiling --------------------------------------------------------------------------------------- */

/* Freezes the brush's cells into *out (its own copy; the brush is unchanged). An empty brush compiles to
 * an empty CompiledBrush (count 0, no memory). ST_ERR_NOMEM when out of memory now or while building; *out
 * is then empty. Free with brush_compiled_free. */
StResult brush_compile(const TerrainBrush *b, CompiledBrush *out);
/* Frees a compiled brush and leaves it empty; an empty (zeroed) one is fine. */
void brush_compiled_free(CompiledBrush *brush);

/* The value a compiled cell paints over `current` at world (x, y, z): its fixed value, or its handler's
 * answer. false: leave the target. */
static inline bool brush_cell_value(const CompiledBrush *b, const BrushCell *c, int32_t current, int x, int y, int z,
                                    int32_t *out)
{
    if (!(c->flags & BRUSH_CELL_HANDLER)) {
        *out = c->value;
        return true;
    }
    const BrushHandler *h = &b->handlers[c->value];
    return h->on_value ? h->on_value(h->user, current, out) : h->on_position(h->user, x, y, z, out);
}

/* ---- painting into one chunk (generation) --------------------------------------------------------------
 * (x, y, z) is the brush origin in world coordinates; only cells inside `chunk` (and y 0..255) are written.
 * Handler cells are resolved per target cell (value handlers see the chunk's cell as painted so far). */

/* PaintFast: paints every cell (replace). */
void brush_paint_fast(const CompiledBrush *brush, TerrainChunk *chunk, int x, int y, int z);

/* Paints each cell only where the chunk's cell contents equal `only_contents` (Survivalcraft's
 * PaintFastSelective: an ore vein replaces its host rock and nothing else). */
void brush_paint_selective(const CompiledBrush *brush, TerrainChunk *chunk, int x, int y, int z, int only_contents);
/* Paints each cell only where replaceable[contents of the chunk's cell] is non-zero, or where the brush
 * cell has BRUSH_CELL_FORCE. `replaceable` has BLOCK_MAX (1024) entries, one per contents value. */
void brush_paint_into(const CompiledBrush *brush, TerrainChunk *chunk, int x, int y, int z,
                      const uint8_t *replaceable);
/* PaintFastAvoidWater: paints a cell only where neither the target nor any of its 6 neighbours inside the
 * chunk holds water (BLOCK_WATER); neighbours outside the chunk are not looked at, so the result depends on
 * this chunk alone. (gen24's caves use their own variant that also looks across the border.) */
void brush_paint_avoid_water(const CompiledBrush *brush, TerrainChunk *chunk, int x, int y, int z);

/* ---- counters and painting through a world (brush_paint.c) -------------------------------------------- */

typedef struct BrushWorld {
    void *user;
    /* The cell value at world (x, y, z), or -1 where there is none (unloaded, out of range). */
    int32_t (*get_cell)(void *user, int x, int y, int z);
    /* Writes the cell; returns true if it changed. */
    bool (*set_cell)(void *user, int x, int y, int z, int32_t value);
} BrushWorld;

/* Predicates for counters and selective painting: on the target's current value, or on the position. */
typedef bool (*BrushMatch)(void *user, int32_t current);
typedef bool (*BrushPositionMatch)(void *user, int x, int y, int z);

/* A BrushWorld over one chunk: cells outside it read -1 and are not written. `chunk` is borrowed. Cells go
 * through chunk_get_cell_shared / chunk_set_cell_shared, so the chunk may be a live Terrain chunk (main thread). */
BrushWorld brush_world_of_chunk(TerrainChunk *chunk);

/* Counters over the brush placed with its origin at world (x, y, z); cells the world has no value for
 * (-1) never count. By value: the current value equals `value` (light bits ignored on both). By handler:
 * match(user, current). By position: match(user, x, y, z) of the cell's world position. */
int brush_count_value(const CompiledBrush *brush, const BrushWorld *world, int x, int y, int z, int32_t value);
int brush_count_match(const CompiledBrush *brush, const BrushWorld *world, int x, int y, int z, BrushMatch match,
                      void *user);
int brush_count_position(const CompiledBrush *brush, const BrushWorld *world, int x, int y, int z,
                         BrushPositionMatch match, void *user);

/* Paint on the world: every cell's value (fixed or from its handler) through world->set_cell, in the
 * compiled order; returns the cells that changed. brush_paint_where paints only where only(user, current)
 * is true (cells without a current value are skipped); `only` NULL paints everywhere (as brush_paint). */
int brush_paint(const CompiledBrush *brush, const BrushWorld *world, int x, int y, int z);
int brush_paint_where(const CompiledBrush *brush, const BrushWorld *world, int x, int y, int z, BrushMatch only,
                      void *user);

/* May the brush with its origin at world (x, ., z) touch chunk (cx, cz)? A bounds test: true can still
 * paint nothing (y out of range, or no cell in the chunk), false paints nothing for sure. */
static inline bool brush_touches_chunk(const CompiledBrush *b, int x, int z, int cx, int cz)
{
    int ox = cx * CHUNK_SIZE_X, oz = cz * CHUNK_SIZE_Z;
    return x + b->max_x >= ox && x + b->min_x < ox + CHUNK_SIZE_X && z + b->max_z >= oz &&
           z + b->min_z < oz + CHUNK_SIZE_Z;
}

#endif
