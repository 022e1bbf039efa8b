/* chunk.h — TerrainChunk: 16 x 16 x 256 cells, 256 shafts, and the chunk state machine's states.
 *
 * Cell index y + x*256 + z*4096 (CHUNK_INDEX). World -> chunk: x >> 4, local x & 15 (works for negatives,
 * arithmetic shift). Shaft per column (index x + z*16): bits 0-7 top height, 8-11 temperature,
 * 12-15 humidity, 16-23 bottom height, 24-31 sunlight height.
 *
 * Hot and cold (Step 9). A chunk's cells are either cold — 16 palette sections (chunk_sections.h), a few
 * kilobytes — or hot: a flat scratch of 65,536 cells in CHUNK_INDEX order taken from a bounded pool, which
 * the hot loops (generation, light, meshing, the codec) see through a CellView. chunk_cell_view makes a
 * cold chunk hot (unpacks it); chunk_pack makes it cold again. The update worker owns those transitions for
 * the chunks of a Terrain: it unpacks a chunk it steps (and the neighbours a step reads) and packs chunks
 * that have left its working set (update.h). The accessors below work on either form, so the main thread's
 * reads and edits of a cold chunk never unpack it.
 *
 * Ownership and threads: chunks are allocated and freed by Terrain (terrain.h). `state`,
 * `modification_counter` and `main_*` fields belong to the main thread; `thread_state` and `worker_*`
 * fields to the update worker; they cross only in the state exchange (update.h). The cells may be read
 * and written by both threads: the other thread's accesses go through the _shared accessors, which hold
 * the chunk's cell lock (a spin lock that also serialises hot/cold transitions), and, on a hot chunk, use
 * cell_load/cell_store, so the worker may walk its views without the lock. Views (and the non-shared
 * accessors) are for the thread that owns the chunk's form: the update worker for a Terrain's chunks, the
 * creator for a chunk outside a Terrain. The main thread never takes a view of a live Terrain chunk.
 * A chunk outside a Terrain is made by chunk_create (or is zeroed: static, calloc) and released with
 * chunk_destroy (or chunk_release_storage before free). */
#ifndef STRATA_CHUNK_H
#define STRATA_CHUNK_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "strata/cell.h"
#include "strata/chunk_sections.h"

#define CHUNK_SIZE_X   16
#define CHUNK_SIZE_Y   256
#define CHUNK_SIZE_Z   16
#define CHUNK_CELLS    (CHUNK_SIZE_X * CHUNK_SIZE_Y * CHUNK_SIZE_Z)
#define CHUNK_SHAFTS   (CHUNK_SIZE_X * CHUNK_SIZE_Z)
#define CHUNK_SLICES   16
#define CHUNK_SLICE_HEIGHT 16
#define CHUNK_INDEX(x, y, z) ((y) + ((x) << 8) + ((z) << 12))
#define CHUNK_SHAFT_INDEX(x, z) ((x) + ((z) << 4))

typedef enum ChunkState {
    CHUNK_STATE_NOT_LOADED = 0,
    CHUNK_STATE_INVALID_CONTENTS1,
    CHUNK_STATE_INVALID_CONTENTS2,
    CHUNK_STATE_INVALID_CONTENTS3,
    CHUNK_STATE_INVALID_CONTENTS4,
    CHUNK_STATE_INVALID_LIGHT,
    CHUNK_STATE_INVALID_PROPAGATED_LIGHT,
    CHUNK_STATE_INVALID_VERTICES1,
    CHUNK_STATE_INVALID_VERTICES2,
    CHUNK_STATE_VALID,
    CHUNK_STATE_COUNT
} ChunkState;

/* Flags (bit set), main-thread owned unless noted. */
#define CHUNK_FLAG_DAMAGED_ON_DISK 0x1u  /* its stored blob is corrupt: never write back until edited */
#define CHUNK_FLAG_LOADED          0x2u  /* contents came from disk, not the generator */

struct ChunkGeometry; /* mesher.h: worker-owned slice geometry */
struct ChunkMesh;     /* mesher.h: packed geometry handed to the main thread */

typedef struct TerrainChunk {
    int coord_x, coord_z;          /* chunk coordinates */
    int origin_x, origin_z;        /* world coordinates of local cell (0, 0) = coord * 16 */

    /* main thread */
    ChunkState state;
    int modification_counter;      /* edits since the last save; > 0 means it must be saved */
    uint32_t flags;

    /* update worker */
    ChunkState thread_state;
    struct ChunkGeometry *worker_geometry; /* slice geometry kept between vertex passes */
    struct ChunkMesh *worker_finished_mesh;/* packed at Valid; swapped to main in the exchange */
    uint32_t worker_flags;                 /* written by the steps (update_step.h, light.h) */
    uint32_t worker_schedule;              /* the update worker's scheduler bits (update_step.h); no step
                                            * touches them, so they change while a job reads the chunk */
    /* Written by light_compute_sunlight (which also floods light inside the chunk), read by light_propagate
     * of this chunk and of its neighbours. Propagation reads neighbours' light bits too: they always lie
     * between the neighbour's own in-chunk light and its final light, so the result is order independent. */
    uint8_t worker_sky_light;              /* the sky light level the last sunlight step used */
    uint64_t worker_emitter_slices;        /* bit 4*s + q: in slice s, quadrant q = (x >= 8) + 2*(z >= 8), an
                                            * emitter whose light can get out */
    uint64_t worker_warm_emitter_slices;   /* the bits of worker_emitter_slices whose quadrant also holds an
                                            * emitter that is not a fluid (a torch, not magma): the mesher's
                                            * warm tint (mesher_blocklight.c) */
    uint64_t worker_dark_rows[4];          /* bit y: a cell of the chunk's border ring of columns in row y
                                            * may hold light >= 2 that is not plain sky above its column top */

    int32_t shafts[CHUNK_SHAFTS];

    /* Cell storage: only through the accessors and views below. */
    int32_t *hot;                  /* the flat scratch while hot (written under the cell lock), else NULL */
    uint32_t cell_lock;            /* 0 free, 1 held (chunk.c) */
    uint32_t worker_hot_stamp;     /* update worker: the step that last used the chunk hot */
    uint32_t worker_hot_exchange;  /* update worker: the exchange count then */
    ChunkSection sections[CHUNK_SECTIONS]; /* the cells while cold (air while hot) */
} TerrainChunk;

/* Shaft field helpers. */
static inline int shaft_top_height(int32_t s) { return s & 0xFF; }
static inline int shaft_temperature(int32_t s) { return (s >> 8) & 0xF; }
static inline int shaft_humidity(int32_t s) { return (s >> 12) & 0xF; }
static inline int shaft_bottom_height(int32_t s) { return (s >> 16) & 0xFF; }
static inline int shaft_sunlight_height(int32_t s) { return (int)(((uint32_t)s >> 24) & 0xFF); }
static inline int32_t shaft_set_top_height(int32_t s, int v) { return (int32_t)(((uint32_t)s & ~0xFFu) | ((uint32_t)v & 0xFF)); }
static inline int32_t shaft_set_temperature(int32_t s, int v) { return (int32_t)(((uint32_t)s & ~0xF00u) | (((uint32_t)v & 0xF) << 8)); }
static inline int32_t shaft_set_humidity(int32_t s, int v) { return (int32_t)(((uint32_t)s & ~0xF000u) | (((uint32_t)v & 0xF) << 12)); }
static inline int32_t shaft_set_bottom_height(int32_t s, int v) { return (int32_t)(((uint32_t)s & ~0xFF0000u) | (((uint32_t)v & 0xFF) << 16)); }
static inline int32_t shaft_set_sunlight_height(int32_t s, int v) { return (int32_t)(((uint32_t)s & 0x00FFFFFFu) | (((uint32_t)v & 0xFF) << 24)); }

/* Coordinate conversion (floor division by 16 for negatives). */
static inline int chunk_coord_of(int world) { return world >> 4; }
static inline int chunk_local_of(int world) { return world & 15; }

/* Resets a chunk for coordinates (cx, cz): all cells air (0) and cold, shafts 0, states NotLoaded, counters
 * 0. The chunk must be zeroed or previously reset (its storage is released). Geometry pointers must
 * already be NULL (freed by their owners). */
void chunk_reset(TerrainChunk *chunk, int cx, int cz);
/* A reset chunk on the heap (NULL when out of memory), and its release (NULL is a no-op). */
TerrainChunk *chunk_create(int cx, int cz);
void chunk_destroy(TerrainChunk *chunk);
/* Frees the chunk's cell storage (scratch back to the pool, sections freed): cells air, cold. */
void chunk_release_storage(TerrainChunk *chunk);

/* ---- Hot and cold ---------------------------------------------------------------------------------------
 * chunk_make_hot unpacks a cold chunk into a pooled scratch (a no-op when hot; exits the process when memory
 * is out: a view cannot fail). chunk_pack packs a hot chunk into sections and returns its scratch to the
 * pool (false, still hot, when memory ran out). Both hold the cell lock; only the form's owner calls them. */
void chunk_make_hot(TerrainChunk *chunk);
bool chunk_pack(TerrainChunk *chunk);
static inline bool chunk_is_hot(const TerrainChunk *c) { return c->hot != NULL; }
/* Scratches handed out and not yet returned (all chunks, all threads). */
int chunk_scratch_in_use(void);
/* Gives the pool's spare scratches beyond `keep` back to the system, a whole slab of 8 at a time (`keep` is
 * rounded up to slabs; an idle owner gives their 256 KiB each back; any thread). */
void chunk_scratch_trim(int keep);
/* Bytes the chunk holds: the struct, its sections' arrays, and its scratch while hot. Under the cell lock,
 * so any thread may ask about a live chunk. kinds (may be NULL): the sections by SectionKind, added to;
 * a hot chunk adds nothing there. */
size_t chunk_resident_bytes(const TerrainChunk *c, int kinds[SECTION_KIND_COUNT]);

/* ---- Cell access ------------------------------------------------------------------------------------
 * Outside the hot inner loops, every read and write of a chunk's cells goes through these accessors (local
 * coordinates, x, z in 0..15, y in 0..255, unchecked). They work on a hot chunk's scratch or a cold chunk's
 * sections without unpacking. The _shared variants are for cells that the other thread may touch at the
 * same time (a main-thread edit while the worker lights or meshes): they hold the cell lock and use relaxed
 * atomics on a hot chunk. An edit of a cold chunk that runs out of memory is logged and dropped. */
int32_t chunk_get_cell_cold(const TerrainChunk *c, int x, int y, int z);
void chunk_set_cell_cold(TerrainChunk *c, int x, int y, int z, int32_t v);
static inline int32_t chunk_get_cell(const TerrainChunk *c, int x, int y, int z)
{
    return c->hot ? c->hot[CHUNK_INDEX(x, y, z)] : chunk_get_cell_cold(c, x, y, z);
}
static inline void chunk_set_cell(TerrainChunk *c, int x, int y, int z, int32_t v)
{
    if (c->hot) c->hot[CHUNK_INDEX(x, y, z)] = v;
    else chunk_set_cell_cold(c, x, y, z, v);
}
int32_t chunk_get_cell_shared(const TerrainChunk *c, int x, int y, int z);
/* Cells y0 .. y0 + count - 1 of column (x, z) into out, as chunk_get_cell_shared reads them, under one hold of
 * the cell lock (a search that reads many cells of a column pays the lock once). */
void chunk_get_column_shared(const TerrainChunk *c, int x, int z, int y0, int count, int32_t *out);
void chunk_set_cell_shared(TerrainChunk *c, int x, int y, int z, int32_t v);
static inline int chunk_get_contents(const TerrainChunk *c, int x, int y, int z)
{
    return cell_contents(chunk_get_cell(c, x, y, z));
}
/* Whole-chunk copies (storage, snapshots for saving): CHUNK_CELLS values in CHUNK_INDEX order. Copying out
 * holds the cell lock and reads with relaxed atomic loads, so it may copy a live chunk the other thread is
 * editing (the update worker's save snapshot); copying in (which makes the chunk hot) and clearing (which
 * leaves it cold, all air) are for a chunk whose form the caller owns. */
void chunk_copy_cells_out(const TerrainChunk *c, int32_t *out);
void chunk_copy_cells_in(TerrainChunk *c, const int32_t *in);
/* All cells air (0), light 0 (cold: nothing allocated). */
void chunk_clear_cells(TerrainChunk *c);

/* ---- Cell views: the hot loops' window on the cells ----------------------------------------------------
 * The generator's fill, sunlight, light propagation and the mesher walk millions of cells per second and
 * need a flat array: a CellView is the chunk's 65,536 cells in CHUNK_INDEX order, so a column (256 cells,
 * y up) is contiguous and a column pointer may be walked with plain indexing. A view is of the chunk's hot
 * scratch: taking one makes a cold chunk hot (chunk_make_hot), so the loops written against views do not
 * know about sections. A view is valid while the caller holds the chunk for its step (until the chunk is
 * packed or reset); never keep one across steps or threads. A const view of a cold chunk unpacks it too
 * (the form changes, the cells do not). Cells another thread may touch are still read and written
 * with cell_load / cell_store through the view's pointers.
 * Alignment: a view's cells start on an 8-byte boundary and a column is 1 KiB, so the cells at y = 2k and
 * 2k + 1 of a column are one naturally aligned 64-bit word (the even y in the low half on the little-endian
 * targets Strata runs on): sunlight and the mesher read, and sunlight compare-and-swaps, two cells at once
 * through a may_alias int64_t pointer. The pooled scratch is 64-byte aligned. */
typedef struct CellView { int32_t *cells; } CellView;
typedef struct CellViewConst { const int32_t *cells; } CellViewConst;

static inline CellView chunk_cell_view(TerrainChunk *c)
{
    if (!c->hot) chunk_make_hot(c);
    CellView v = { c->hot };
    return v;
}
static inline CellViewConst chunk_cell_view_const(const TerrainChunk *c)
{
    if (!c->hot) chunk_make_hot((TerrainChunk *)c);
    CellViewConst v = { c->hot };
    return v;
}
/* The same cells, read-only. */
static inline CellViewConst cell_view_to_const(CellView v) { CellViewConst c = { v.cells }; return c; }
/* The 256 cells of column (x, z), y = 0 first. */
static inline int32_t *cell_view_column(CellView v, int x, int z) { return v.cells + CHUNK_INDEX(x, 0, z); }
static inline const int32_t *cell_view_const_column(CellViewConst v, int x, int z) { return v.cells + CHUNK_INDEX(x, 0, z); }
/* The cell at flat index i = CHUNK_INDEX(x, y, z) (0..CHUNK_CELLS - 1): a pointer, for the loops that walk
 * flat indices and for cell_load / cell_store / cell_store_light on cells the other thread may touch. */
static inline int32_t *cell_view_at(CellView v, int i) { return v.cells + i; }
static inline const int32_t *cell_view_const_at(CellViewConst v, int i) { return v.cells + i; }
static inline int32_t cell_view_get(CellViewConst v, int x, int y, int z) { return v.cells[CHUNK_INDEX(x, y, z)]; }
static inline void cell_view_set(CellView v, int x, int y, int z, int32_t value) { v.cells[CHUNK_INDEX(x, y, z)] = value; }

_Static_assert(sizeof(int32_t) * CHUNK_SIZE_Y % 8 == 0, "columns must keep cell pairs 8-byte aligned");

#endif
