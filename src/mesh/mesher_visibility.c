/* mesher_visibility.c — the slice graphs of occlusion culling (visibility.h): which of a slice's 6 faces
 * are joined through cells that are not opaque cubes.
 *
 * Design. A flood fill over the slice's 16^3 cells, one component at a time, each with the set of faces
 * its cells lie on; every pair of faces in one component is joined. The cells are 16-bit column masks
 * (bit y = opaque), as the mesher's slab already keeps them, so the mesher hands its masks over with one
 * call after it has built the slice (mesher_visibility_slice): no second pass over the cells. A slice of
 * only air is open everywhere and is never filled; a component that reaches all 6 faces ends the fill. */
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

/* The faces cell (x, y, z) lies on. */
static unsigned visibility_cell_faces(int x, int y, int z)
{
    unsigned f = 0;
    if (x == 0) f |= 1u << VISIBILITY_FACE_NEG_X;
    if (x == 15) f |= 1u << VISIBILITY_FACE_POS_X;
    if (y == 0) f |= 1u << VISIBILITY_FACE_NEG_Y;
    if (y == 15) f |= 1u << VISIBILITY_FACE_POS_Y;
    if (z == 0) f |= 1u << VISIBILITY_FACE_NEG_Z;
    if (z == 15) f |= 1u << VISIBILITY_FACE_POS_Z;
    return f;
}

uint16_t visibility_graph_from_opaque(const uint16_t opaque[VISIBILITY_SLICE * VISIBILITY_SLICE])
{
    uint16_t seen[256];               /* per column: cells filled or opaque */
    uint16_t stack[4096];             /* cell index x + 16 z + 256 y */
    int any_open = 0;
    for (int c = 0; c < 256; c++) {
        seen[c] = opaque[c];
        any_open |= (uint16_t)~opaque[c];
    }
    if (!any_open) return 0;
    uint16_t graph = 0;
    for (int c = 0; c < 256 && graph != VISIBILITY_ALL_OPEN; c++) {
        while (seen[c] != 0xFFFF && graph != VISIBILITY_ALL_OPEN) {
            int y0 = __builtin_ctz((unsigned)(uint16_t)~seen[c]);
            seen[c] |= (uint16_t)(1u << y0);
            int top = 0;
            stack[top++] = (uint16_t)(c + 256 * y0);
            unsigned faces = 0;
            while (top > 0) {
                int cell = stack[--top];
                int col = cell & 255, y = cell >> 8, x = col & 15, z = col >> 4;
                faces |= visibility_cell_faces(x, y, z);
                /* the 6 neighbours inside the slice that are neither opaque nor filled yet */
                int nx[6] = {x - 1, x + 1, x, x, x, x}, ny[6] = {y, y, y - 1, y + 1, y, y},
                    nz[6] = {z, z, z, z, z - 1, z + 1};
                for (int k = 0; k < 6; k++) {
                    if ((unsigned)nx[k] > 15 || (unsigned)ny[k] > 15 || (unsigned)nz[k] > 15) continue;
                    int ncol = nx[k] + 16 * nz[k];
                    uint16_t bit = (uint16_t)(1u << ny[k]);
                    if (seen[ncol] & bit) continue;
                    seen[ncol] |= bit;
                    stack[top++] = (uint16_t)(ncol + 256 * ny[k]);
                }
            }
            graph |= visibility_pairs_of(faces);
        }
    }
    return graph;
}

uint16_t mesher_visibility_slice(const MesherSlab *slab)
{
    uint16_t opaque[256];
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

void mesher_visibility_occluders(const MesherContext *ctx, const TerrainChunk *chunk, CellViewConst cells,
                                 VisibilityChunk *out)
{
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
