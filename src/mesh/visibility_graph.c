/* visibility_graph.c — the slice graphs of occlusion culling (visibility.h): which of a slice's 6 faces
 * are joined through cells that are not opaque cubes.
 *
 * Design. A flood fill over the slice's 16^3 cells, one component at a time, each with the set of faces
 * its cells lie on; every pair of faces in one component is joined. The fill is bit-parallel: a component
 * is 256 column masks, grown by sweeps back and forth over the rows it spans (each column takes in the
 * runs of open cells that touch the component in it or beside it), so a slice costs a few hundred
 * column steps rather than a step per cell. The cells are 16-bit column masks
 * (bit y = opaque), as the mesher's slab already keeps them, so the mesher hands its masks over with one
 * call after it has built the slice (mesher_visibility_slice): no second pass over the cells. A slice of
 * only air is open everywhere and is never filled; a component that reaches all 6 faces ends the fill. A
 * slice of ground under open air (every column's open cells one run up to the top row: most surface slices)
 * is one component through its top row, and its graph is known from the masks without a fill.
 * The occluders: the mesher keeps each built slice's opaque masks (ChunkGeometry.slice_opaque_rows, what the
 * graph was made from), so pass 2 finds the occluder runs in them without reading the cells again; a chunk
 * whose geometry lacks a slice's masks reads its cells as before. */
#include "mesher_internal.h"
#include <string.h>

#include "strata/visibility.h"

int visibility_pair_bit(int a, int b)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    /* pairs (0,1)..(0,5) = bits 0..4, (1,2)..(1,5) = 5..8, (2,3)..(2,5) = 9..11, (3,4), (3,5) = 12, 13, (4,5) = 14 */
    static const int first[5] = {0, 5, 9, 12, 14};
    return first[a] + (b - a - 1);
}

bool visibility_connects(uint16_t graph, int a, int b)
{
    return a != b && (graph >> visibility_pair_bit(a, b) & 1u) != 0;
}

/* The graph bits joining every pair of the faces in `faces` (6 bits). */
static uint16_t visibility_pairs_of(unsigned faces)
{
    uint16_t g = 0;
    for (int a = 0; a < VISIBILITY_FACES; a++)
        for (int b = a + 1; b < VISIBILITY_FACES; b++)
            if ((faces >> a & 1u) && (faces >> b & 1u)) g |= (uint16_t)(1u << visibility_pair_bit(a, b));
    return g;
}

/* Grows `seed` along the runs of `open` in a 16-bit column, up and down (Kogge-Stone occluded fills). */
static inline uint32_t visibility_column_fill(uint32_t seed, uint32_t open)
{
    uint32_t up = seed, pro = open;
    up |= pro & (up << 1); pro &= pro << 1;
    up |= pro & (up << 2); pro &= pro << 2;
    up |= pro & (up << 4); pro &= pro << 4;
    up |= pro & (up << 8);
    uint32_t down = seed;
    pro = open;
    down |= pro & (down >> 1); pro &= pro >> 1;
    down |= pro & (down >> 2); pro &= pro >> 2;
    down |= pro & (down >> 4); pro &= pro >> 4;
    down |= pro & (down >> 8);
    return (up | down) & open;
}

static inline bool comp_row_any(const uint16_t comp[256], int z)
{
    uint16_t any = 0;
    for (int x = 0; x < 16; x++) any |= comp[x + 16 * z];
    return any != 0;
}

/* One sweep over rows z0..z1 (inclusive) in the given direction: each column takes in its own runs that
 * touch the component in it or in its 4 neighbours (already updated ones included, so a forward sweep
 * carries the component all the way to +x/+z and a backward one to -x/-z). Returns whether anything grew. */
static bool visibility_sweep(uint16_t comp[256], const uint16_t left[256], int z0, int z1, bool forward)
{
    bool grew = false;
    for (int n = 0; n <= z1 - z0; n++) {
        int z = forward ? z0 + n : z1 - n;
        for (int m = 0; m < 16; m++) {
            int x = forward ? m : 15 - m, i = x + 16 * z;
            if (!left[i]) continue;
            uint32_t touch = comp[i];
            if (x > 0) touch |= comp[i - 1];
            if (x < 15) touch |= comp[i + 1];
            if (z > 0) touch |= comp[i - 16];
            if (z < 15) touch |= comp[i + 16];
            touch &= left[i];
            if ((touch & ~(uint32_t)comp[i]) == 0) continue;
            comp[i] = (uint16_t)visibility_column_fill(touch, left[i]);
            grew = true;
        }
    }
    return grew;
}

/* The faces a component's columns reach. */
static unsigned visibility_component_faces(const uint16_t comp[256])
{
    unsigned f = 0;
    uint16_t any = 0;
    for (int i = 0; i < 256; i++) any |= comp[i];
    if (any & 1u) f |= 1u << VISIBILITY_FACE_NEG_Y;
    if (any & 0x8000u) f |= 1u << VISIBILITY_FACE_POS_Y;
    for (int k = 0; k < 16; k++) {
        if (comp[16 * k]) f |= 1u << VISIBILITY_FACE_NEG_X;
        if (comp[15 + 16 * k]) f |= 1u << VISIBILITY_FACE_POS_X;
        if (comp[k]) f |= 1u << VISIBILITY_FACE_NEG_Z;
        if (comp[k + 240]) f |= 1u << VISIBILITY_FACE_POS_Z;
    }
    return f;
}

uint16_t visibility_graph_from_opaque(const uint16_t opaque[VISIBILITY_SLICE * VISIBILITY_SLICE])
{
    uint16_t left[256];               /* per column: open cells not in a component yet */
    uint16_t comp[256];               /* per column: the component being grown */
    int any_open = 0;
    for (int c = 0; c < 256; c++) {
        left[c] = (uint16_t)~opaque[c];
        any_open |= left[c];
    }
    if (!any_open) return 0;
    /* Ground under open air (most surface slices): every column's open cells one run up to the top row. They
     * all join through the open top row: one component, on the top, the 4 sides, and the bottom if a column
     * is open all the way down. */
    bool ground = true, floor_open = false;
    for (int c = 0; c < 256 && ground; c++) {
        uint32_t closed = opaque[c];
        ground = closed != 0xFFFFu && (closed & (closed + 1)) == 0;
        floor_open = floor_open || closed == 0;
    }
    if (ground)
        return visibility_pairs_of((1u << VISIBILITY_FACE_POS_Y) | (1u << VISIBILITY_FACE_NEG_X) |
                                   (1u << VISIBILITY_FACE_POS_X) | (1u << VISIBILITY_FACE_NEG_Z) |
                                   (1u << VISIBILITY_FACE_POS_Z) | (floor_open ? 1u << VISIBILITY_FACE_NEG_Y : 0u));
    uint16_t graph = 0;
    for (int c = 0; c < 256 && graph != VISIBILITY_ALL_OPEN; c++) {
        while (left[c] && graph != VISIBILITY_ALL_OPEN) {
            memset(comp, 0, sizeof comp);
            comp[c] = (uint16_t)visibility_column_fill(left[c] & (uint32_t)-(int32_t)left[c], left[c]);
            /* sweep back and forth over the rows the component spans (plus one each side) until it stops */
            int z0 = c >> 4, z1 = c >> 4;
            bool grew = true;
            for (bool forward = true; grew; forward = !forward) {
                int a = z0 > 0 ? z0 - 1 : 0, b = z1 < 15 ? z1 + 1 : 15;
                grew = visibility_sweep(comp, left, a, b, forward);
                while (z0 > 0 && comp_row_any(comp, z0 - 1)) z0--;
                while (z1 < 15 && comp_row_any(comp, z1 + 1)) z1++;
            }
            for (int i = 0; i < 256; i++) left[i] &= (uint16_t)~comp[i];
            graph |= visibility_pairs_of(visibility_component_faces(comp));
        }
    }
    return graph;
}

uint16_t mesher_visibility_slice(const MesherSlab *slab, uint16_t opaque[CHUNK_SHAFTS])
{
    for (int z = 0; z < 16; z++)
        for (int x = 0; x < 16; x++) opaque[x + 16 * z] = (uint16_t)(slab->opaque[SLAB_COLUMN(x, z)] >> 1);
    return visibility_graph_from_opaque(opaque);
}

void visibility_chunk_init(VisibilityChunk *chunk)
{
    chunk->known = false;
    for (int s = 0; s < 16; s++) {
        chunk->slice_graph[s] = VISIBILITY_ALL_OPEN;
        chunk->slice_low[s] = 0;
        chunk->slice_high[s] = 16;
    }
    memset(chunk->occluder_bottom, 1, sizeof chunk->occluder_bottom);   /* top 0 < bottom 1: none */
    memset(chunk->occluder_top, 0, sizeof chunk->occluder_top);
}

/* Per group of columns, the highest run of rows where all of them are opaque cubes (the ground under
 * hills, cut off above caves): from the group's highest top (the shafts' top heights) down to the first
 * such row, then down while it holds, at most MESHER_OCCLUDER_DEPTH rows (any part of an opaque run is
 * an occluder, so a stale top height or the cap only make it smaller, never wrong). */
#define MESHER_OCCLUDER_DEPTH 32

/* Rows of slice s where every column of group (gx, gz) is an opaque cube (bit y). */
static inline uint32_t mesher_group_rows(const ChunkGeometry *g, int s, int gx, int gz)
{
    enum { SPAN = VISIBILITY_OCCLUDER_SPAN };
    uint32_t all = 0xFFFFu;
    for (int k = 0; k < SPAN * SPAN; k++)
        all &= g->slice_opaque_rows[s][CHUNK_SHAFT_INDEX(SPAN * gx + k % SPAN, SPAN * gz + k / SPAN)];
    return all;
}

/* The same occluders from the slices' kept opaque rows: the highest opaque row at or under the group's highest
 * top, then down the run, at most MESHER_OCCLUDER_DEPTH rows. */
static void mesher_occluders_from_rows(const TerrainChunk *chunk, const ChunkGeometry *g, VisibilityChunk *out)
{
    enum { G = VISIBILITY_OCCLUDER_GROUPS, SPAN = VISIBILITY_OCCLUDER_SPAN };
    for (int gz = 0; gz < G; gz++)
        for (int gx = 0; gx < G; gx++) {
            int y = 0, i = gx + G * gz;
            for (int k = 0; k < SPAN * SPAN; k++) {
                int top = shaft_top_height(chunk->shafts[CHUNK_SHAFT_INDEX(SPAN * gx + k % SPAN, SPAN * gz + k / SPAN)]);
                y = top > y ? top : y;
            }
            int s = y >> 4;
            uint32_t rows = mesher_group_rows(g, s, gx, gz) & ((2u << (y & 15)) - 1);
            while (!rows && s > 0) rows = mesher_group_rows(g, --s, gx, gz);
            if (!rows) {
                out->occluder_bottom[i] = 1;
                out->occluder_top[i] = 0;
                continue;
            }
            int top = 16 * s + 31 - __builtin_clz(rows), low = 0;
            uint32_t open = ~rows & ((1u << (top & 15)) - 1);   /* rows under the top that are not opaque */
            for (;;) {
                if (open) {
                    low = 16 * s + 32 - __builtin_clz(open);
                    break;
                }
                if (s == 0 || 16 * s <= top - MESHER_OCCLUDER_DEPTH + 1) break;   /* the world's floor, or deep enough */
                open = ~mesher_group_rows(g, --s, gx, gz) & 0xFFFFu;
            }
            int bottom = top - MESHER_OCCLUDER_DEPTH + 1;
            bottom = low > bottom ? low : bottom;
            out->occluder_bottom[i] = (uint8_t)bottom;
            out->occluder_top[i] = (uint8_t)top;
        }
}

void mesher_visibility_occluders(const MesherContext *ctx, const TerrainChunk *chunk, CellViewConst cells,
                                 const ChunkGeometry *g, VisibilityChunk *out)
{
    if (g->slice_opaque_known == 0xFFFFu) {
        mesher_occluders_from_rows(chunk, g, out);
        return;
    }
    enum { G = VISIBILITY_OCCLUDER_GROUPS, SPAN = VISIBILITY_OCCLUDER_SPAN };
    const uint8_t *kind = ctx->kind;
    for (int gz = 0; gz < G; gz++)
        for (int gx = 0; gx < G; gx++) {
            const int32_t *col[SPAN * SPAN];
            int y = 0;
            for (int k = 0; k < SPAN * SPAN; k++) {
                int x = SPAN * gx + k % SPAN, z = SPAN * gz + k / SPAN;
                col[k] = cell_view_const_column(cells, x, z);
                int top = shaft_top_height(chunk->shafts[CHUNK_SHAFT_INDEX(x, z)]);
                y = top > y ? top : y;
            }
            int top = -1, bottom = 0;
            for (; y >= 0; y--) {
                unsigned all = MESHER_KIND_OPAQUE;
                for (int k = 0; k < SPAN * SPAN; k++) all &= kind[cell_contents(cell_load(&col[k][y]))];
                if (top < 0 && all) top = y;
                if (top >= 0 && (!all || top - y >= MESHER_OCCLUDER_DEPTH)) break;
            }
            bottom = y + 1;
            int i = gx + G * gz;
            if (top < 0) {
                out->occluder_bottom[i] = 1;
                out->occluder_top[i] = 0;
            } else {
                out->occluder_bottom[i] = (uint8_t)bottom;
                out->occluder_top[i] = (uint8_t)top;
            }
        }
}
