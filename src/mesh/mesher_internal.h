/* mesher_internal.h — shared between the mesher's files (src/mesh only): the slab copy of a slice's
 * neighbourhood, the context with its tables, and the emit helpers.
 *
 * The slab is the slice's 16 x 16 x 16 cells plus a one-cell border on every side (18^3), copied from the
 * 3x3 chunks with cell_load; everything after the copy reads only the slab. Slab index:
 * (y + 1) + 18 * (x + 1) + 324 * (z + 1) for slice-local x, y, z in -1..16. */
#ifndef STRATA_MESHER_INTERNAL_H
#define STRATA_MESHER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <stdlib.h>
#include "strata/level_buckets.h"
#include "strata/mesher.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define SLAB_SIZE     18
#define SLAB_STRIDE_Y 1
#define SLAB_STRIDE_X SLAB_SIZE
#define SLAB_STRIDE_Z (SLAB_SIZE * SLAB_SIZE)
#define SLAB_CELLS    (SLAB_SIZE * SLAB_SIZE * SLAB_SIZE)
#define SLAB_COLUMNS  (SLAB_SIZE * SLAB_SIZE)
#define SLAB_INDEX(x, y, z) (((y) + 1) + ((x) + 1) * SLAB_STRIDE_X + ((z) + 1) * SLAB_STRIDE_Z)
#define SLAB_COLUMN(x, z) (((x) + 1) + ((z) + 1) * SLAB_SIZE)

/* Vertex light index: light * 7 - shadow, 0..MESHER_LIGHT_STEPS-1 (a seventh of a light level per step). */
#define MESHER_SHADOW_DIVISOR 7
#define MESHER_LIGHT_STEPS    (LIGHT_MAX * MESHER_SHADOW_DIVISOR + 1)
#define MESHER_SHADOW_OPAQUE  10   /* an opaque cube next to a vertex darkens it by 10/7 of a level */
#define MESHER_SHADOW_LEAVES  4

#define MESHER_FLUID_SURFACE_PX 14 /* a fluid with no fluid above is 14/16 high */

#define MESHER_TINT_TYPES 4

/* Block classes for the slab masks. */
#define MESHER_KIND_OPAQUE 1u   /* opaque cube */
#define MESHER_KIND_NONAIR 2u
#define MESHER_KIND_WATER  4u
#define MESHER_KIND_LEAVES 8u   /* alpha-tested cube: faces between two of them are culled */
#define MESHER_KIND_FAR_OPAQUE 16u /* transparent cube the far copy holds as solid (BlockRegistry.far_opaque) */

/* Face geometry shared by the light and face code (mesher_faces.c): per BlockFace the outward normal and
 * the 4 corners of the unit cube face, counter-clockwise seen from outside. */
extern const int MESHER_FACE_NORMAL[6][3];
extern const int MESHER_FACE_CORNER[6][4][3];
/* Texture corner of each face corner in tile pixels (left-bottom, right-bottom, right-top, left-top). */
extern const int MESHER_CORNER_UV[4][2];

/* Per face: slab offset of the cell in front of it, and per corner the offsets (from that cell) of the 3
 * other cells around the corner. */
typedef struct MesherFaceTaps {
    int front;
    int around[4][3];
} MesherFaceTaps;

#define MESHER_PASS_SLICES (CHUNK_SLICES / 2)
#define MESHER_FACE_REC_LISTS (2 * MESH_SUBSET_COUNT + 2)

/* One slice's neighbourhood copy and its per-column bit masks (bit y+1 of column SLAB_COLUMN(x, z)). */
typedef struct MesherSlab {
    int32_t cells[SLAB_CELLS];
    uint32_t opaque[SLAB_COLUMNS];         /* opaque cube: hides faces */
    uint32_t nonair[SLAB_COLUMNS];
    uint32_t water[SLAB_COLUMNS];          /* BLOCK_WATER: culls against itself */
    uint32_t leaves[SLAB_COLUMNS];         /* any leaves: cull against any leaves */
    uint32_t far_opaque[SLAB_COLUMNS];     /* MESHER_KIND_FAR_OPAQUE (ice): solid in the far copy */
} MesherSlab;

struct MesherContext {
    MesherSlab slab_data;                  /* the slice being rebuilt, copied */
    const int32_t *slab;                   /* its cells */
    int slice_y0;                          /* its world y of slab y 0 */

    /* settings */
    float brightness;                      /* 0..1 */
    int season;                            /* MESHER_SEASON_* */

    /* tables from the settings */
    uint16_t face_factor[6][MESHER_LIGHT_STEPS];            /* face shade * light curve, 0..256 */
    uint16_t flat_factor[MESHER_LIGHT_STEPS];               /* light curve alone (plants, torches) */
    uint8_t tint_table[MESHER_TINT_TYPES][16][16][3];       /* [tint][temperature][humidity] */

    MesherFaceTaps taps[6];

    /* tables from the block registry (rebuilt when the registry changes) */
    const BlockRegistry *blocks;
    uint8_t shadow[BLOCK_MAX];
    uint8_t kind[BLOCK_MAX];               /* MESHER_KIND_* bits */

    /* per pass */
    uint8_t column_tint[MESHER_TINT_TYPES][CHUNK_SHAFTS][3];
    CellViewConst neighbours[9];           /* [(dz + 1) * 3 + dx + 1]: the 3x3 chunks' cells for this pass */
    bool neighbour_missing[9];             /* that chunk is missing: neighbours[] holds the centre's cells */
    bool failed;                           /* a vertex list could not grow */

    /* block light (mesher_blocklight.c) */
    uint64_t warm_emitter_slices[9];       /* the 3x3 chunks' worker_warm_emitter_slices (0 for a missing one) */
    bool block_light_active;               /* slab_block_light holds the slice's block light */
    uint8_t slab_block_light[SLAB_CELLS];  /* block light alone, slab-indexed */
    uint8_t *bl_grid;                      /* scratch: the 48^3 flood grid */
    LevelBuckets bl_buckets;
    const BlockRegistry *bl_ids_blocks;    /* the registry bl_ids was made from */
    int bl_id_count;                       /* emitting block ids (more than 8: the scalar scan) */
    uint16_t bl_ids[8];
    uint8_t bl_warm_quadrants[9][CHUNK_SLICES]; /* this pass: bit 4 + q quadrant q scanned, bit q it holds a
                                            * warm emitter (mesher_blocklight_begin_pass clears it) */

    /* greedy merging (mesher_merge.c) */
    bool merge;                            /* merge coplanar faces (default on) */
    bool lod;                              /* the half-resolution layout (default on): ice's faces after the rest
                                            * of the transparent list, and the copy where `copies` asks for it */
    unsigned copies;                       /* MESH_COPY_* this build makes (mesher_context_set_copies) */
    struct MesherMergeRec *merge_recs;     /* scratch: one record per quad of a list */
    struct MesherMergeRec *merge_sorted;   /* scratch: the records in key order */
    uint32_t *merge_order;                 /* scratch: 9 x capacity words for the sort (mesher_merge.c) */
    int merge_rec_capacity;
    VertexList merge_out;                  /* scratch: the merged list, swapped with the input */
    struct MesherFaceRecs *face_recs;      /* scratch: merge records made at emission, one side array per
                                            * build_lists[k], then leaf_list, near_list, then lod_lists[k]
                                            * (MESHER_FACE_REC_LISTS, mesher_merge.c) */
    bool face_shapes_ready;
    bool merge_half;                       /* the list being merged is the half-resolution copy, its records
                                            * at half scale (mesher_lod_merge) */
    struct MesherFaceShape {               /* per cube face and diagonal turn: its record's fixed part */
        bool full;
        uint8_t corner[4];
        uint32_t facing, sig;
    } face_shapes[6][2];
    VertexList leaf_list;                  /* scratch: the slice's leaves' faces, put before the rest of the
                                            * alpha-tested subset once merged (mesher_build_slice) */
    VertexList lod_lists[MESH_SUBSET_COUNT]; /* scratch: the slice at half resolution (mesher_lod.c), put
                                            * before each subset's own faces */
    VertexList build_lists[MESH_SUBSET_COUNT]; /* scratch: the slice's lists as they are built, copied into its
                                            * geometry once done (mesher_build_slice): warm storage, no growth
                                            * of a fresh chunk's lists by doubling */
    VertexList near_list;                  /* scratch: faces of far-opaque cubes (ice), put after the rest of
                                            * the transparent subset: far chunks' copy holds those blocks */
};

/* The per-kind bit masks (bit j = row j) of a column's 32 kind bytes (SSE2: one movemask per kind and 16 rows). */
static inline void mesher_kind_masks(const uint8_t kinds[32], uint32_t *opaque, uint32_t *nonair, uint32_t *water,
                                     uint32_t *leaves, uint32_t *far_opaque)
{
    uint32_t out[5];
#if defined(__SSE2__)
    __m128i lo = _mm_loadu_si128((const __m128i *)kinds), hi = _mm_loadu_si128((const __m128i *)(kinds + 16));
    /* bit b of every byte to its top bit: a shift of the 16-bit lanes by 7 - b puts bit b of both bytes of
     * a lane at bits 7 and 15, then one movemask per 16 rows */
    out[0] = (uint32_t)_mm_movemask_epi8(_mm_slli_epi16(lo, 7)) | (uint32_t)_mm_movemask_epi8(_mm_slli_epi16(hi, 7)) << 16;
    out[1] = (uint32_t)_mm_movemask_epi8(_mm_slli_epi16(lo, 6)) | (uint32_t)_mm_movemask_epi8(_mm_slli_epi16(hi, 6)) << 16;
    out[2] = (uint32_t)_mm_movemask_epi8(_mm_slli_epi16(lo, 5)) | (uint32_t)_mm_movemask_epi8(_mm_slli_epi16(hi, 5)) << 16;
    out[3] = (uint32_t)_mm_movemask_epi8(_mm_slli_epi16(lo, 4)) | (uint32_t)_mm_movemask_epi8(_mm_slli_epi16(hi, 4)) << 16;
    out[4] = (uint32_t)_mm_movemask_epi8(_mm_slli_epi16(lo, 3)) | (uint32_t)_mm_movemask_epi8(_mm_slli_epi16(hi, 3)) << 16;
#else
    for (int b = 0; b < 5; b++) {
        out[b] = 0;
        for (int j = 0; j < 32; j++) out[b] |= (uint32_t)(kinds[j] >> b & 1u) << j;
    }
#endif
    *opaque = out[0];
    *nonair = out[1];
    *water = out[2];
    *leaves = out[3];
    *far_opaque = out[4];
}

/* mesher_light.c */
void mesher_light_init_tables(MesherContext *ctx);
void mesher_light_init_taps(MesherContext *ctx);
void mesher_light_prepare_blocks(MesherContext *ctx, const BlockRegistry *blocks);
void mesher_light_prepare_columns(MesherContext *ctx, const TerrainChunk *chunk);
/* Vertex light index of the 4 corners of face `face` of the slab cell `cell`; `emission` raises all.
 * Each corner: the brightest of its 4 cells in front of the face, minus their summed shadow / 7. */
static inline void mesher_light_face_corners(const MesherContext *ctx, int cell, int face, int emission, int out[4])
{
    const MesherFaceTaps *t = &ctx->taps[face];
    const int32_t *slab = ctx->slab;
    int front = cell + t->front;
    int32_t fv = slab[front];
    int front_light = cell_light(fv), front_shadow = ctx->shadow[cell_contents(fv)];
    int floor = emission * MESHER_SHADOW_DIVISOR;
    for (int k = 0; k < 4; k++) {
        int light = front_light, shadow = front_shadow;
        for (int i = 0; i < 3; i++) {
            int32_t v = slab[front + t->around[k][i]];
            int l = cell_light(v);
            if (l > light) light = l;
            shadow += ctx->shadow[cell_contents(v)];
        }
        int value = light * MESHER_SHADOW_DIVISOR - shadow;
        out[k] = value < floor ? floor : value;
    }
}

/* mesher_blocklight.c: whether a warm emitter's light can reach slice `slice` (the 3x3 chunks' summaries) */
bool mesher_blocklight_near(const MesherContext *ctx, int slice);
/* Forgets the last pass's quadrant scans (the cells may have changed since). */
void mesher_blocklight_begin_pass(MesherContext *ctx);
/* Floods block light for the slice when emitters are near; sets ctx->block_light_active. False when none
 * are near or scratch memory ran out (then the slice is drawn neutral). */
bool mesher_blocklight_prepare(MesherContext *ctx, int slice);
void mesher_blocklight_free(MesherContext *ctx);
/* Multiplies the corners of a face (in emit order: corner (first + i) & 3 at i) by the candle colour where
 * block light explains their light. Only while ctx->block_light_active. */
void mesher_blocklight_tint_face(const MesherContext *ctx, int cell, int face, int first, uint8_t color[4][4]);

/* mesher_faces.c: cubes, fluids */
void mesher_faces_emit_cell(MesherContext *ctx, VertexList *lists, int x, int y, int z);

/* mesher.c: the column of chunk-local (lx, lz), -16..31, from the 3x3 chunks; *missing when that chunk is
 * missing (then the centre's nearest column: read only its light, as air). */
static inline const int32_t *mesher_source_column(const MesherContext *ctx, int lx, int lz, bool *missing)
{
    int n = ((lz >> 4) + 1) * 3 + (lx >> 4) + 1;
    *missing = ctx->neighbour_missing[n];
    if (*missing) {
        lx = lx < 0 ? 0 : lx > 15 ? 15 : lx;
        lz = lz < 0 ? 0 : lz > 15 ? 15 : lz;
    }
    return cell_view_const_column(ctx->neighbours[n], lx & 15, lz & 15);
}

/* mesher_lod.c: the slab's slice at half resolution (2 x 2 x 2 cells a block), opaque faces into lists 0..4
 * and leaves into the alpha-tested one (all emptied first), one quad per block face, unmerged. */
void mesher_lod_build(MesherContext *ctx, const MesherSlab *slab, int slice, VertexList lists[MESH_SUBSET_COUNT]);
/* Greedy merging of one such list (mesher_merge_list at half scale). */
void mesher_lod_merge(MesherContext *ctx, VertexList *list);

/* mesher_shapes.c: crossed plants, torches, thin layers */
void mesher_shapes_emit_cross(MesherContext *ctx, VertexList *list, int x, int y, int z, const BlockDef *def);
void mesher_shapes_emit_torch(MesherContext *ctx, VertexList *list, int x, int y, int z, const BlockDef *def);
void mesher_shapes_emit_layer(MesherContext *ctx, VertexList *list, int x, int y, int z, int id);

/* mesher_merge.c: replaces the quads of the mergeable subsets of a slice (opaque 0..4, transparent 6) by
 * fewer, larger quads that cover the same faces with the same colours and texels. */
void mesher_merge_slice(MesherContext *ctx, VertexList *lists);
/* The same for one list. */
void mesher_merge_list(MesherContext *ctx, VertexList *list);
/* Forgets the records of the last slice's faces (its lists are emptied); of one list (emptied). */
void mesher_merge_begin_slice(MesherContext *ctx);
void mesher_merge_begin_list(MesherContext *ctx, const VertexList *list);
/* Notes the merge record of the face just appended to `list`, so mesher_merge_list need not classify it: a
 * face of a cube's corners (MESHER_FACE_CORNER, corner (first + i) & 3 at vertex i) and texture
 * (MESHER_CORNER_UV) on cell (x, y, z) in the merge's coordinates (world y), `plane` its vertices' coordinate
 * along the face's axis, `color` as emitted; `full` false where it is cut short (a side of a sunken fluid or
 * a thin layer: it never merges). */
void mesher_merge_note_face(MesherContext *ctx, const VertexList *list, int face, int first, bool full, int x, int y,
                            int z, float plane, int tile, const uint8_t color[4][4]);
/* A face's axis (0 x, 1 y, 2 z). */
static inline int mesher_face_axis(int face)
{
    return face >= BLOCK_FACE_POS_Y ? 1 : (face & 1) ? 0 : 2;
}
void mesher_merge_free(MesherContext *ctx);

/* visibility_graph.c: the occlusion graph of the slab's slice (visibility.h), from its opaque masks, which
 * it leaves in `opaque` (bit y of column x + 16 z: ChunkGeometry.slice_opaque_rows). */
uint16_t mesher_visibility_slice(const MesherSlab *slab, uint16_t opaque[CHUNK_SHAFTS]);
/* The chunk's occluder boxes (visibility.h): from the slices' opaque rows where the geometry holds all 16
 * (slice_opaque_known), else from its own cells. */
void mesher_visibility_occluders(const MesherContext *ctx, const TerrainChunk *chunk, CellViewConst cells,
                                 const ChunkGeometry *g, VisibilityChunk *out);

/* mesher.c: vertex output */
/* Grows a list to hold `extra` more vertices; on failure sets ctx->failed and returns false. */
static inline bool mesher_list_grow(MesherContext *ctx, VertexList *list, int extra)
{
    int cap = list->capacity ? list->capacity : 256;
    while (cap < list->count + extra) cap *= 2;
    TerrainVertex *data = realloc(list->data, (size_t)cap * sizeof *data);
    if (!data) {
        ctx->failed = true;
        return false;
    }
    list->data = data;
    list->capacity = cap;
    return true;
}

/* Appends one quad (4 vertices, CCW seen from the front). Positions are chunk-local; uv in atlas pixels of a
 * 16-pixel-tile atlas (0..256), all 4 inside one tile; colours RGBA. The tile is the one holding the quad's
 * smallest u and v; vertices store it with the tile-local coordinate (mesher.h, MESHER_UV_TILE_STRIDE).
 * Drops the quad (ctx->failed set) if the list cannot grow. */
static inline void mesher_emit_quad(MesherContext *ctx, VertexList *list, const float pos[4][3], const int uv[4][2],
                                    const uint8_t color[4][4])
{
    if (list->count + 4 > list->capacity && !mesher_list_grow(ctx, list, 4)) return;
    int min_u = uv[0][0], min_v = uv[0][1];
    for (int k = 1; k < 4; k++) {
        min_u = uv[k][0] < min_u ? uv[k][0] : min_u;
        min_v = uv[k][1] < min_v ? uv[k][1] : min_v;
    }
    int tile_u = min_u >> 4, tile_v = min_v >> 4;
    TerrainVertex *v = &list->data[list->count];
    for (int k = 0; k < 4; k++) {
        v[k].x = pos[k][0];
        v[k].y = pos[k][1];
        v[k].z = pos[k][2];
        v[k].tx = (int16_t)(tile_u * MESHER_UV_TILE_STRIDE + uv[k][0] - tile_u * 16);
        v[k].ty = (int16_t)(tile_v * MESHER_UV_TILE_STRIDE + uv[k][1] - tile_v * 16);
        memcpy(v[k].color, color[k], 4);
    }
    list->count += 4;
}

/* Colour of a vertex: tint (RGB) scaled by a 0..256 factor, alpha 255. */
static inline void mesher_shade(uint8_t out[4], const uint8_t tint[3], unsigned factor)
{
    out[0] = (uint8_t)((tint[0] * factor) >> 8);
    out[1] = (uint8_t)((tint[1] * factor) >> 8);
    out[2] = (uint8_t)((tint[2] * factor) >> 8);
    out[3] = 255;
}

/* The tint of a block's face in this column (white when the face is not tinted). */
static inline const uint8_t *mesher_face_tint(const MesherContext *ctx, const BlockDef *def, BlockFace face,
                                              int x, int z)
{
    static const uint8_t white[3] = {255, 255, 255};
    if (!block_face_tinted(def, face)) return white;
    return ctx->column_tint[def->tint][CHUNK_SHAFT_INDEX(x, z)];
}

#endif
