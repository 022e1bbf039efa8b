/* mesher_faces.c — faces of cube-like blocks: opaque cubes, alpha-tested cubes (leaves), transparent
 * cubes (glass, ice) and fluids (water, magma).
 *
 * Design. A face is emitted unless the cell it looks into hides it:
 *   - an opaque cube hides every face against it (also across chunk borders: the slab holds the
 *     neighbour chunks' border cells; a missing neighbour was copied as air, so nothing is culled there);
 *   - transparent cubes and fluids also hide faces against the same block (no walls inside a lake or
 *     between two panes), and leaves hide faces against any leaves ("fast leaves": a canopy shows only
 *     its outside, which keeps forests within what a software renderer draws at a usable frame rate;
 *     the faces of leaves against air stay, and the alpha-tested pass draws them from both sides), but not
 *     the top or bottom face of leaves across a one-cell air gap to more leaves: canopies are built in layers
 *     with such gaps, and those faces, inside the canopy and dim, showed through the leaves in front as dark
 *     horizontal streaks wherever one lay near eye level (a horizontal face seen edge-on is a line of the
 *     tile's far mip level);
 *   - a fluid also hides its faces against ice and glass (their own faces show the boundary);
 *   - a fluid with neither the same fluid nor a cube-shaped block above is 14/16 high: its top face sinks
 *     and its side faces end there (texture cut to match); under ice it stays full so no gap opens.
 * A thin layer (snow cover) is not an opaque cube, so the side faces of cubes next to it stay (its own
 * faces are in mesher_shapes.c). Only the top face of a cube under a layer goes: the layer's box covers
 * that whole face from above, and where the cube is not opaque (leaves, ice, glass) the layer's bottom
 * face shows in its place, so the two never lie in one plane (no z-fighting seen from below).
 * Subsets: opaque cube faces by direction (+Z 0, +X 1, -Z 2, -X 3, +-Y 4), other opaque shapes 4,
 * alpha-tested 5, transparent 6. The quad's diagonal is turned to run between its two brighter corners
 * when that differs, so a single dark corner does not smear across the face. Each face's greedy-merge record
 * is made as it is emitted (mesher_merge_note_face): the merge does not classify it again from its vertices. */
#include "mesher_internal.h"

const int MESHER_FACE_NORMAL[6][3] = {{0, 0, 1}, {1, 0, 0}, {0, 0, -1}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
const int MESHER_FACE_CORNER[6][4][3] = {
    {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}},   /* +Z */
    {{1, 0, 1}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}},   /* +X */
    {{1, 0, 0}, {0, 0, 0}, {0, 1, 0}, {1, 1, 0}},   /* -Z */
    {{0, 0, 0}, {0, 0, 1}, {0, 1, 1}, {0, 1, 0}},   /* -X */
    {{0, 1, 1}, {1, 1, 1}, {1, 1, 0}, {0, 1, 0}},   /* +Y */
    {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}}};  /* -Y */
/* Texture corner of each face corner in tile pixels: left-bottom, right-bottom, right-top, left-top as
 * seen from outside (side faces upright). */
const int MESHER_CORNER_UV[4][2] = {{0, 16}, {16, 16}, {16, 0}, {0, 0}};
static const int MESHER_FACE_STRIDE[6] = {SLAB_STRIDE_Z, SLAB_STRIDE_X, -SLAB_STRIDE_Z, -SLAB_STRIDE_X,
                                          SLAB_STRIDE_Y, -SLAB_STRIDE_Y};

static inline int mesher_layer_subset(int layer)
{
    return layer == BLOCK_LAYER_ALPHA_TESTED ? MESH_SUBSET_ALPHA_TESTED
         : layer == BLOCK_LAYER_TRANSPARENT  ? MESH_SUBSET_TRANSPARENT
                                             : MESH_SUBSET_OPAQUE_OTHER;
}

/* One face of the unit cell at slab (x, y, z), `height_px` tall (16, or 14 for a sunken fluid). */
static void mesher_emit_block_face(MesherContext *ctx, VertexList *list, int x, int y, int z, int face,
                                   const BlockDef *def, int height_px)
{
    int light[4];
    mesher_light_face_corners(ctx, SLAB_INDEX(x, y, z), face, def->emission, light);
    const uint8_t *tint = mesher_face_tint(ctx, def, (BlockFace)face, x, z);
    int tile = def->textures[face];
    int tile_u = (tile & 15) * 16, tile_v = (tile >> 4) * 16;
    float height = (float)height_px / 16.0f;
    float pos[4][3];
    int uv[4][2];
    uint8_t color[4][4];
    int first = light[0] + light[2] < light[1] + light[3] ? 1 : 0;  /* diagonal 1-3 between brighter corners */
    for (int i = 0; i < 4; i++) {
        int k = (first + i) & 3;
        const int *c = MESHER_FACE_CORNER[face][k];
        pos[i][0] = (float)(x + c[0]);
        pos[i][1] = (float)(ctx->slice_y0 + y) + (c[1] ? height : 0.0f);
        pos[i][2] = (float)(z + c[2]);
        uv[i][0] = tile_u + MESHER_CORNER_UV[k][0];
        int v = MESHER_CORNER_UV[k][1];
        if (face < BLOCK_FACE_POS_Y && c[1]) v = 16 - height_px;  /* side face: cut the texture's top */
        uv[i][1] = tile_v + v;
        mesher_shade(color[i], tint, ctx->face_factor[face][light[k]]);
    }
    if (ctx->block_light_active) mesher_blocklight_tint_face(ctx, SLAB_INDEX(x, y, z), face, first, color);
    int before = list->count;
    mesher_emit_quad(ctx, list, pos, uv, color);
    if (list->count > before)
        mesher_merge_note_face(ctx, list, face, first, height_px == 16 || face >= BLOCK_FACE_POS_Y, x,
                               ctx->slice_y0 + y, z, pos[0][mesher_face_axis(face)], tile, color);
}

/* Whether the cell two steps from slab cell (x, y, z) through its top or bottom face holds leaves: the air
 * cell between is a one-cell gap inside a canopy. Rows -2 and 17 lie beyond the slab: read from the chunk (the
 * slice hash covers two rows of border); beyond the world nothing. */
static bool mesher_leaves_across_gap(const MesherContext *ctx, int x, int y, int z, int face)
{
    int y2 = y + (face == BLOCK_FACE_POS_Y ? 2 : -2);
    int32_t v;
    if (y2 >= -1 && y2 <= CHUNK_SLICE_HEIGHT) {
        v = ctx->slab[SLAB_INDEX(x, y2, z)];
    } else {
        int wy = ctx->slice_y0 + y2;
        if (wy < 0 || wy >= CHUNK_SIZE_Y) return false;
        bool missing;
        v = cell_load(&mesher_source_column(ctx, x, z, &missing)[wy]);
    }
    return (ctx->kind[cell_contents(v)] & MESHER_KIND_LEAVES) != 0;
}

static void mesher_emit_cube(MesherContext *ctx, VertexList *lists, int x, int y, int z, int id)
{
    const BlockRegistry *blocks = ctx->blocks;
    const BlockDef *def = &blocks->defs[id];
    const int32_t *slab = ctx->slab;
    int cell = SLAB_INDEX(x, y, z);
    int layer = blocks->layer[id];
    bool cull_same = layer == BLOCK_LAYER_TRANSPARENT;
    bool leaves = (ctx->kind[id] & MESHER_KIND_LEAVES) != 0;
    bool far_opaque = ctx->lod && (ctx->kind[id] & MESHER_KIND_FAR_OPAQUE);   /* ice: after the far chunks' part */
    for (int f = 0; f < 6; f++) {
        int n = cell_contents(slab[cell + MESHER_FACE_STRIDE[f]]);
        if (blocks->opaque_cube[n] || (cull_same && n == id)) continue;
        if (leaves && (ctx->kind[n] & MESHER_KIND_LEAVES)) continue;
        if (leaves && f >= BLOCK_FACE_POS_Y && n == BLOCK_AIR && mesher_leaves_across_gap(ctx, x, y, z, f)) continue;
        if (f == BLOCK_FACE_POS_Y && blocks->shape[n] == BLOCK_SHAPE_LAYER) continue;  /* under the layer's box */
        int subset = layer == BLOCK_LAYER_OPAQUE ? (f < BLOCK_FACE_POS_Y ? f : MESH_SUBSET_OPAQUE_OTHER)
                                                 : mesher_layer_subset(layer);
        VertexList *list = leaves && subset == MESH_SUBSET_ALPHA_TESTED ? &ctx->leaf_list
                         : far_opaque ? &ctx->near_list : &lists[subset];
        mesher_emit_block_face(ctx, list, x, y, z, f, def, 16);
    }
}

static void mesher_emit_fluid(MesherContext *ctx, VertexList *lists, int x, int y, int z, int id)
{
    const BlockRegistry *blocks = ctx->blocks;
    const BlockDef *def = &blocks->defs[id];
    const int32_t *slab = ctx->slab;
    int cell = SLAB_INDEX(x, y, z);
    int above = cell_contents(slab[cell + SLAB_STRIDE_Y]);
    int height = above == id || blocks->shape[above] == BLOCK_SHAPE_CUBE ? 16 : MESHER_FLUID_SURFACE_PX;
    VertexList *list = &lists[mesher_layer_subset(blocks->layer[id])];
    for (int f = 0; f < 6; f++) {
        int n = cell_contents(slab[cell + MESHER_FACE_STRIDE[f]]);
        bool clear_cube = blocks->layer[n] == BLOCK_LAYER_TRANSPARENT && blocks->shape[n] == BLOCK_SHAPE_CUBE;
        if (blocks->opaque_cube[n] || n == id || clear_cube) continue;
        mesher_emit_block_face(ctx, list, x, y, z, f, def, height);
    }
}

void mesher_faces_emit_cell(MesherContext *ctx, VertexList *lists, int x, int y, int z)
{
    int id = cell_contents(ctx->slab[SLAB_INDEX(x, y, z)]);
    const BlockDef *def = &ctx->blocks->defs[id];
    if (!def->defined) return;
    switch ((BlockShape)ctx->blocks->shape[id]) {
    case BLOCK_SHAPE_CUBE: mesher_emit_cube(ctx, lists, x, y, z, id); break;
    case BLOCK_SHAPE_FLUID: mesher_emit_fluid(ctx, lists, x, y, z, id); break;
    case BLOCK_SHAPE_CROSS:
        mesher_shapes_emit_cross(ctx, &lists[mesher_layer_subset(def->layer)], x, y, z, def);
        break;
    case BLOCK_SHAPE_TORCH:
        mesher_shapes_emit_torch(ctx, &lists[mesher_layer_subset(def->layer)], x, y, z, def);
        break;
    case BLOCK_SHAPE_LAYER:
        mesher_shapes_emit_layer(ctx, &lists[mesher_layer_subset(def->layer)], x, y, z, id);
        break;
    case BLOCK_SHAPE_NONE: break;
    }
}
