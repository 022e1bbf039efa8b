/* render_internal.h — private to src/render: the pieces render.c orchestrates.
 *
 * shader.c (GLSL load/compile/link), render_atlas.c (texture with per-tile mipmaps), chunk_buffers.c (the chunk
 * table, upload queue and budget, the shared quad index buffer), chunk_arena.c (the big vertex buffers
 * every chunk's geometry is a range of), frustum.c (planes and AABB test),
 * render_sky.c (sky and fog colour, fog range), overlay.c (block outline, crosshair, HUD text), render_ui.c (2D UI:
 * rectangles, text, block icons), render_screenshot.c.
 * Everything here runs on the main thread with the GL context current. Nothing outside src/render
 * includes this header (it pulls in glad). */
#ifndef STRATA_RENDER_INTERNAL_H
#define STRATA_RENDER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <glad/gl.h>
#include <cglm/cglm.h>
#include "strata/render.h"
#include "strata/far_terrain.h"
#include "strata/range_alloc.h"
#include "strata/visibility.h"

#define RENDER_TAG "render"

/* ---- shader.c ---- */

/* Compiles shader_dir/vert_file and shader_dir/frag_file and links them. ST_ERR_IO if a file cannot be
 * read, ST_ERR_GL with the file name and the GL info log if compiling or linking fails. */
StResult render_shader_load(const char *shader_dir, const char *vert_file, const char *frag_file, GLuint *program);
/* The same with `defines` (lines of #define, each ending in a newline) put into the fragment shader. */
StResult render_shader_load_variant(const char *shader_dir, const char *vert_file, const char *frag_file,
                                    const char *defines, GLuint *program);
/* Uniform location; a missing uniform (optimised away) is -1, which glUniform* ignores. */
GLint render_shader_uniform(GLuint program, const char *name);

/* ---- render_atlas.c ---- */

#define RENDER_ATLAS_TILES_PER_ROW 16
#define RENDER_ATLAS_TILES (RENDER_ATLAS_TILES_PER_ROW * RENDER_ATLAS_TILES_PER_ROW)

typedef struct RenderAtlas {
    GLuint texture;  /* GL_TEXTURE_2D: the atlas as drawn (UI icons) */
    GLuint tiles;    /* GL_TEXTURE_2D_ARRAY: one layer per tile, column + 16 * row, GL_REPEAT (terrain) */
    int size;        /* width = height in pixels */
    int tile_size;   /* size / 16 */
    int mip_levels;  /* levels uploaded (level 0 included) */
    uint8_t tile_colors[RENDER_ATLAS_TILES][4]; /* each tile's last level: its colour weighted by alpha, RGBA */
} RenderAtlas;

/* Loads asset_dir/textures/atlas.png (square, 16 tiles per row, power-of-two tile size) with per-tile
 * mipmaps, as the 2D atlas and as the tile array. ST_ERR_IO if missing, ST_ERR_FORMAT if not a usable image; messages name the path. */
StResult render_atlas_load(const char *asset_dir, RenderAtlas *atlas);
void render_atlas_free(RenderAtlas *atlas);
/* Uploads a one-channel image (GL_R8) into the GL_TEXTURE_2D bound now, with its whole mip chain made here by
 * 2x2 box averages (an odd row or column is folded into its neighbour): glGenerateMipmap on llvmpipe JITs a
 * blit shader at its first call, ~0.1 s of the start-up's main thread. False when out of memory (level 0 is
 * uploaded then, without mips). */
bool render_texture_r8_mipmapped(int width, int height, const uint8_t *pixels);

/* ---- frustum.c ---- */

typedef struct RenderFrustum {
    vec4 planes[6];
} RenderFrustum;

void render_frustum_init(RenderFrustum *frustum, mat4 view_proj);
/* True if the box (camera-relative coordinates) touches the frustum. */
bool render_frustum_test_box(const RenderFrustum *frustum, const float box_min[3], const float box_max[3]);

/* ---- render_sky.c ---- */

/* Fog in blocks (horizontal distance from the camera): linear from start to end, end at the voxel view
 * distance, start at 2/3 of it. */
void render_fog_range(int view_distance_chunks, float *fog_start, float *fog_end);
/* Fog band of a chunk that is still fading in: end = its haze distance, same band width as the global fog. */
void render_chunk_fog_range(float fog_start, float fog_end, float haze_end, float *chunk_start, float *chunk_end);

/* One build of sky.frag: by day, or with the stars compiled in (RenderSky.night). */
typedef struct RenderSkyProgram {
    GLuint program;
    GLint u_inv_view_proj, u_horizon, u_zenith, u_sun, u_glow_dir, u_low, u_night, u_moon, u_camera,
          u_cloud_shift, u_fog, u_cloud_color, u_cloud_alpha;
} RenderSkyProgram;

#define RENDER_CLOUD_UNIT 2               /* texture unit of the sky's cloud cells */
#define RENDER_FAR_COVER_UNIT 3           /* texture unit of the far terrain's cover map (far_render.c) */

typedef struct RenderSky {
    RenderSkyProgram day, night;
    GLuint vao, clouds;  /* clouds: GL_TEXTURE_2D, R8, RENDER_CLOUD_PERIOD^2 cells */
} RenderSky;

/* Builds both programs and the cloud texture (ST_ERR_IO / ST_ERR_GL naming the shader, ST_ERR_NOMEM). */
StResult render_sky_create(RenderSky *sky, const char *shader_dir);
void render_sky_destroy(RenderSky *sky);
/* Draws the dome on every pixel still at the far plane (depth test on, writes off): after the opaque terrain
 * (voxel, far and alpha-tested), before anything blended. Leaves culling off and depth writes on. */
void render_sky_draw(const RenderSky *sky, mat4 view_proj, const RenderCamera *camera, const RenderFrame *frame,
                     const float horizon[3], float fog_start, float fog_end);

/* ---- chunk_buffers.c ---- */

/* The shared element buffer with the quad pattern (0,1,2, 0,2,3 per 4 vertices), GL_UNSIGNED_INT. */
typedef struct RenderQuadIndices {
    GLuint buffer;
    int quads;       /* capacity in quads */
} RenderQuadIndices;

/* Grows the index buffer to at least `quads` quads (same buffer name, so VAOs stay valid). */
void render_quad_indices_ensure(RenderQuadIndices *indices, int quads);

/* ---- chunk_arena.c ---- */

/* A terrain vertex as an arena holds it: the mesher's TerrainVertex with its position in fixed point and the
 * chunk's slot in the room that saves (16 bytes instead of 20 and a parallel 2-byte slot id: llvmpipe keeps
 * every page of an arena resident, ~6 MiB at view distance 8). Positions are chunk-local, so a step of
 * 1/ARENA_POSITION_STEPS block (a quarter of a texel) over +-512 blocks holds every vertex the mesher makes:
 * whole blocks, the sixteenths of shapes and liquids and the eighths of snow exactly, a plant's diagonal to
 * within 1/128 block. chunk_arena_write converts; terrain.vert scales back. */
#define ARENA_POSITION_STEPS 64
/* `v` times `steps`, rounded to the nearest integer and clamped to int16 (NaN: the lowest): the fixed point of
 * the arenas' and the far terrain's GPU vertices. */
static inline int16_t render_fixed16(float v, float steps)
{
    float f = v * steps;
    if (!(f > -32768.0f)) return -32768;
    if (f > 32767.0f) return 32767;
    return (int16_t)((int)(f + 32768.5f) - 32768);
}
typedef struct ArenaVertex {
    int16_t x, y, z;               /* chunk-local position * ARENA_POSITION_STEPS */
    uint16_t slot;                 /* the chunk's slot in the per-frame table */
    int16_t tx, ty;                /* as TerrainVertex */
    uint8_t color[4];
} ArenaVertex;
_Static_assert(sizeof(ArenaVertex) == 16, "ArenaVertex must be 16 bytes");

#define RENDER_ARENA_VERTICES (1 << 20)    /* per arena: 16 MiB of vertices (ArenaVertex); the
                                            * environment's STRATA_ARENA_VERTICES overrides it (tests: many
                                            * small arenas). llvmpipe clears a new buffer's every page (the
                                            * whole arena is resident from the start), so arenas come in
                                            * steps a twelfth of view distance 8's geometry: what is made is
                                            * what the chunks fill, give or take one arena */
#define RENDER_ARENA_GRANULE 64            /* vertices: ranges round up to this (less fragmentation) */
#define RENDER_ARENA_RESERVE_PER_CHUNK 16000 /* at most this many vertices a chunk of the view square are kept
                                            * while emptied (seed 1 at view distance 8: ~11.6k a chunk at
                                            * ready, ~340 chunks resident in flight for the 289 of the
                                            * square: copies, granules, ranges waiting for their frame) */
#define RENDER_SLOT_MAX 65535              /* chunk slots (uint16 per vertex; 0xFFFF unused) */

typedef struct RenderArena {
    GLuint vao, vbo;               /* 0: an unused entry */
    RangeAlloc ranges;             /* in vertices */
} RenderArena;

typedef struct ChunkArenaFree {
    int arena, offset, size;
    long frame;                    /* the last frame that could draw the range */
} ChunkArenaFree;

typedef struct ChunkArenaSet {
    RenderArena *arenas;
    int count;                     /* entries (some may be unused) */
    int live;                      /* arenas with GL buffers */
    ChunkArenaFree *deferred;      /* freed ranges waiting for their last frame to finish */
    int deferred_count, deferred_capacity;
    long frames_ended;             /* frames submitted so far (the renderer keeps it) */
    int arena_vertices;            /* capacity of a new arena (RENDER_ARENA_VERTICES or the override) */
    long reserve_vertices;         /* arenas of this capacity in all are kept when emptied */
} ChunkArenaSet;

/* Empty, with the arena size of RENDER_ARENA_VERTICES or STRATA_ARENA_VERTICES (1024..2^24). */
void chunk_arena_init(ChunkArenaSet *set);

/* A range of at least `vertices` (rounded up to the granule) in the first arena with room, or a new arena.
 * False when out of memory. */
bool chunk_arena_alloc(ChunkArenaSet *set, int vertices, GLuint quad_index_buffer, int *arena, int *offset,
                       int *size);
/* Sets the capacity kept: emptied arenas within it are not dropped. Nothing is made ahead for it. */
void chunk_arena_set_reserve(ChunkArenaSet *set, long vertices);
/* Vertices the live arenas hold in all (used or not). */
long chunk_arena_live_capacity(const ChunkArenaSet *set);
/* Gives a range back once the frames in flight that may draw it are done (see chunk_arena_reclaim). */
void chunk_arena_release(ChunkArenaSet *set, int arena, int offset, int size);
/* Returns to their allocators the ranges last drawable in frames <= finished_frame (their fence has
 * passed); drops emptied arenas past the first. */
void chunk_arena_reclaim(ChunkArenaSet *set, long finished_frame);
/* Writes the mesh's subsets at first[s] (vertices, from the range start) of the `total` vertices of the range
 * starting at `offset`, converted to ArenaVertex with `slot`. */
void chunk_arena_write(ChunkArenaSet *set, int arena, int offset, const ChunkMesh *mesh, const int first[],
                       const int count[], uint16_t slot, int total);
void chunk_arena_free_all(ChunkArenaSet *set);

/* ---- chunk_buffers.c ---- */

typedef struct RenderChunk {
    int coord_x, coord_z;
    int arena;                     /* -1 until the first non-empty upload */
    int arena_offset, arena_size;  /* the range in that arena, vertices */
    uint16_t slot;                 /* index of the chunk's entry in the per-frame slot table (shader) */
    int first[MESH_SUBSET_COUNT];  /* first vertex of each subset inside the chunk's range */
    int count[MESH_SUBSET_COUNT];  /* vertices of each subset (a multiple of 4) */
    int total_vertices;
    int min_y, max_y;
    int slice_vertices[MESH_SUBSET_COUNT][CHUNK_SLICES]; /* occlusion culling: per-slice vertices, */
    int lod_vertices[MESH_SUBSET_COUNT][CHUNK_SLICES]; /* each slice's part of each subset: half resolution first */
    int alpha_leaf_vertices[CHUNK_SLICES]; /* then, alpha-tested, leaves, then the rest (ChunkMesh) */
    bool has_lod;                  /* ChunkMesh.lod: the half-resolution copies are there */
    bool far_only;                 /* ChunkMesh.far_only: nothing at full resolution (render_chunk_draws_far) */
    VisibilityChunk visibility;    /* slice graphs and occluders (visibility.h), valid once graph_known */
    bool graph_known;
    bool has_geometry;             /* uploaded and non-empty: drawn */
    float haze_end;                /* fade-in: this chunk's fog end, grows by RENDER_FADE_SPEED to the range */
    float lod_share;               /* 0 full resolution .. 1 half (render_lod_share_step); < 0: not yet known */
    ChunkMesh *pending;            /* queued CPU mesh (owned) waiting for the upload budget */
    int urgent_draws;              /* > 0: the player edited it; a mesh is uploaded at once, outside the budget,
                                    * during the next urgent_draws draws */
} RenderChunk;

#define RENDER_URGENT_DRAWS 120            /* how long an edit keeps a chunk's next meshes urgent */


#define RENDER_FADE_SPEED 32.0f            /* blocks per second the haze of a new chunk recedes */

typedef struct ChunkBufferTable {
    RenderChunk *chunks;           /* dense array */
    int count, capacity;
    int32_t *slots;                /* open addressing (linear probing): dense index + 1, 0 = empty */
    int slot_capacity;             /* power of two */
    int pending_count;
    uint64_t occluders_epoch;      /* +1 whenever a chunk's occlusion data comes or goes (the walk's horizon
                                    * is rebuilt only then or when the camera moves; never 0) */
    RenderQuadIndices quad_indices;
    struct PendingPick *pick_scratch; /* pending chunks and their distances, reused each frame */
    int pick_capacity;
    ChunkArenaSet arenas;
    uint16_t *free_slots;          /* slots given back, reused first */
    int free_slot_count, free_slot_capacity;
    int slot_high;                 /* slots ever handed out: the slot table's length */
} ChunkBufferTable;

/* Empty, with room for `expected_chunks` (the view square) before it grows. */
StResult chunk_buffers_init(ChunkBufferTable *table, int expected_chunks);
/* Frees GL objects and pending meshes. */
void chunk_buffers_free(ChunkBufferTable *table);
RenderChunk *chunk_buffers_find(ChunkBufferTable *table, int coord_x, int coord_z);
/* Queues `mesh` (owned from now on), replacing a mesh still queued for the same chunk. */
void chunk_buffers_queue_mesh(ChunkBufferTable *table, int coord_x, int coord_z, ChunkMesh *mesh);
/* Frees the chunk's buffers and drops a queued mesh. */
void chunk_buffers_release(ChunkBufferTable *table, int coord_x, int coord_z);
/* Uploads queued meshes of urgent chunks (edited: outside the budget), then the others nearest to the camera
 * first until budget_ms has passed (at least one; all of them if budget_ms < 0). New geometry starts its
 * fade at its nearest corner's distance; returns chunks uploaded. */
int chunk_buffers_upload(ChunkBufferTable *table, const double camera[3], double budget_ms);
/* Horizontal distance from the camera to the nearest point of the chunk's 16x16 footprint. */
float chunk_buffers_nearest_distance(int coord_x, int coord_z, const double camera[3]);

/* ---- overlay.c ---- */

typedef struct RenderOverlay {
    GLuint program, vao, vbo;
    GLint u_mvp;
    int vbo_bytes;
    struct OverlayVertex *scratch; /* CPU staging for one frame's lines and quads */
    int scratch_capacity;          /* vertices */
} RenderOverlay;

/* Builds the program and VAO; grows `indices` to the largest HUD the overlay can draw. */
StResult render_overlay_create(RenderOverlay *overlay, const char *shader_dir, RenderQuadIndices *indices);
void render_overlay_destroy(RenderOverlay *overlay);
/* Draws the outline of frame->highlight_cell (if frame->highlight), the crosshair and, if show_hud, the HUD
 * lines over a dark backdrop. view_proj has no translation; positions are made camera-relative here. */
void render_overlay_draw(RenderOverlay *overlay, mat4 view_proj,
                         const double camera[3], const RenderFrame *frame, int width, int height);

/* ---- render_ui.c ---- */

#define RENDER_FONT_FIRST 32
#define RENDER_FONT_GLYPHS 95

typedef struct RenderUi {
    GLuint program, vao, vbo;
    GLint u_mvp;
    bool vao_ready;                /* attributes set up (on the first flush, when the index buffer exists) */
    GLuint font_texture;           /* single-channel coverage; 0 = none (text is drawn with stb_easy_font) */
    int font_width, font_height;   /* the font bitmap, pixels */
    float font_pixel_height, font_ascent;
    float glyphs[RENDER_FONT_GLYPHS][7]; /* ASCII 32..126: x0 y0 x1 y1 xoff yoff xadvance (ui_font.json) */
    struct UiVertex *vertices;     /* this frame's queue */
    int count, capacity;           /* vertices */
    int vbo_bytes;
    const BlockRegistry *blocks;   /* for block icons (borrowed) */
} RenderUi;

/* Builds the program; loads asset_dir/fonts/ui_font.png and .json (missing or bad: a warning, and text falls
 * back to stb_easy_font). */
StResult render_ui_create(RenderUi *ui, const char *shader_dir, const char *asset_dir, const BlockRegistry *blocks);
void render_ui_destroy(RenderUi *ui);
/* Draws and empties the queue (pixels, top-left origin); leaves depth test on and blending off. */
void render_ui_flush(RenderUi *ui, RenderQuadIndices *indices, GLuint atlas_texture, int width, int height);
/* ---- edit_overlay.c ---- */

typedef struct RenderEditOverlay {
    GLuint vao, vbo;
    int vbo_bytes;
    struct OverlayVertex *scratch;
    int scratch_capacity;          /* vertices */
} RenderEditOverlay;

StResult render_edit_overlay_create(RenderEditOverlay *eo, RenderQuadIndices *indices);
void render_edit_overlay_destroy(RenderEditOverlay *eo);
/* Draws frame->preview, frame->particles and the strip with the overlay's program (before the overlay). */
void render_edit_overlay_draw(RenderEditOverlay *eo, const RenderOverlay *overlay, mat4 view_proj,
                              const double camera[3], const RenderFrame *frame, int width, int height);

/* ---- far_render.c ---- */

/* A far vertex as the GPU holds it: FarVertex's position in sixteenths of a block (every far height is one:
 * whole blocks, the sea's 14/16, a skirt's quarter; x and z are column corners), 10 bytes instead of 16
 * (~3.5 MB at view distance 8 with a 2 km cut). render_far_get converts; far.vert scales back. */
#define FAR_GPU_POSITION_STEPS 16
typedef struct FarGpuVertex {
    int16_t x, y, z;
    uint8_t color[4];
} FarGpuVertex;
_Static_assert(sizeof(FarGpuVertex) == 10, "FarGpuVertex must be 10 bytes");

typedef struct RenderFarEntry {
    uint64_t key;
    GLuint vao, vbo, ebo;
    int index_count;
    long last_frame;
    bool kept;                     /* renderer_far_keep: the FarTerrain freed its copy, so no eviction by age */
} RenderFarEntry;

typedef struct RenderFarProgram {
    GLuint program;
    GLint u_view_proj, u_offset, u_fog_color, u_fog_range, u_light, u_cover, u_cover_origin, u_cover_size;
} RenderFarProgram;

typedef struct RenderFar {
    RenderFarProgram plain, cover;  /* far.frag without and with COVER (the cover map's discard) */
    GLuint cover_texture;           /* R8, cover_size^2: 255 where a voxel chunk is drawn (far_render.c) */
    uint8_t *cover_data;
    int cover_size;
    RenderFarEntry *entries;       /* GPU copies of patches, by key */
    int count, capacity;
    long frame;
    const FarPatch *const *patches; /* this frame's patches (owned by the game's FarTerrain) */
    int patch_count;
    struct RenderFarNear *order;    /* this frame's patches, nearest first (far_render.c) */
    int order_capacity;
    float far_distance;             /* 0: off */
} RenderFar;

StResult render_far_create(RenderFar *far, const char *shader_dir);
void render_far_destroy(RenderFar *far);
/* renderer_far_keep and renderer_far_forget's work. */
bool render_far_keep(RenderFar *far, uint64_t key);
void render_far_forget(RenderFar *far, uint64_t key);
/* What the voxel chunks hide of the far terrain this frame (render.c). */
typedef struct RenderFarCull {
    float voxel_cover;           /* blocks around the camera within which chunks may be drawn */
    int cover_chunks;            /* chunks from the camera's chunk (each way) that may be drawn */
    FarCoveredFn covered;        /* squares inside voxel_cover under drawn chunks (far_patch_runs) */
    bool (*hidden)(void *user, const double lo[3], const double hi[3]);   /* a box behind the occluders */
    void *user;
} RenderFarCull;

/* Uploads new patches, draws those in the frustum and not hidden behind the voxel occluders (without their
 * squares under drawn chunks: far_patch_runs), frees those not handed over lately. Returns triangles; adds
 * its draw calls to *draw_calls. */
long render_far_draw(RenderFar *far, mat4 view_proj, const double camera[3], const float sky[3], float fog_start,
                     float fog_end, float light, const RenderFarCull *cull, int *draw_calls);

/* ---- render.c ---- */

typedef struct TerrainProgram {
    GLuint program;               /* 0: not linked yet */
    bool failed;                  /* linking it failed: the CLEAR build draws instead */
    GLint u_view_proj, u_fog_color, u_tiles, u_slots;
} TerrainProgram;

/* Each terrain pass's shader is built twice: for chunks wholly nearer than their fog's start (CLEAR: no fog
 * a pixel) and for the rest; the passes that draw half-resolution faces twice more, for chunks dissolving
 * from one resolution to the other (FADE 1: the full-resolution faces keep the pixels of the dither's
 * thresholds at or above the share, FADE 2: the half-resolution ones the rest). */
enum { RENDER_CLEAR = 0, RENDER_FOGGED = 1, RENDER_FADE_FULL = 2, RENDER_FADE_HALF = 3, RENDER_BUILDS = 4,
       RENDER_PLAIN_BUILDS = 2 /* the transparent pass's: CLEAR and FOGGED */ };

/* The per-frame slot table (a texture buffer, RGBA32F, RENDER_SLOT_TEXELS texels per slot): texel 0 =
 * chunk origin - camera (xyz), texel 1 = the chunk's fog band (start, end) and its lod_share. The terrain
 * shader reads its vertex's slot there, so chunks need no per-draw uniforms and a pass is one multi-draw per
 * arena. */
#define RENDER_SLOT_TEXELS 2
#define RENDER_SLOT_UNIT 1                 /* texture unit of the slot table (the atlas is unit 0) */

/* A pass's program in use: its builds (RENDER_CLEAR ...), which one is bound (-1: none yet), and the frame's
 * uniforms. */
/* One terrain shader (a fragment file and the defines before its builds' own) and its builds. The CLEAR build
 * is linked with the renderer (a broken shader stops the game at its start); the others the first time a
 * pass binds them (renderer_pass_use): a player standing still draws with the CLEAR builds alone, and each
 * build costs llvmpipe ~1 MB of compiled code and ~3 ms of the launch's main thread (10 of the 14). */
typedef struct TerrainShader {
    const char *frag_file;        /* in the renderer's shader folder */
    const char *defines;          /* NULL: none */
    int builds;                   /* RENDER_BUILDS or RENDER_PLAIN_BUILDS */
    TerrainProgram program[RENDER_BUILDS];
} TerrainShader;

typedef struct RenderPass {
    TerrainShader *shader;
    int bound;
    const float *view_proj, *fog_color;
} RenderPass;

/* One pass's draws of one arena: (count, base vertex) runs for glMultiDrawElementsBaseVertex. */
typedef struct RenderBatch {
    GLsizei *counts;
    GLint *bases;
    const void **offsets;          /* all NULL: every run starts at the quad pattern's start */
    int count, capacity;
    int arena;                     /* the arena of the runs queued, -1: none */
} RenderBatch;

typedef struct VisibleChunk {
    int index;          /* into the chunk table's dense array */
    float distance;     /* horizontal, camera to chunk centre: draw order */
    float offset[3];    /* chunk origin - camera (computed in double) */
    float fog_start, fog_end;
    uint16_t slices;    /* slices the occlusion walk reached (visibility.h) */
    float lod_share;    /* RenderChunk.lod_share: 0 full resolution, 1 half, between: both, dissolving */
    bool fogged;        /* some of it lies past its fog's start: drawn with the fogged builds */
    /* its alpha-tested parts per pass, [0] at full resolution, [1] at half (render_alpha_parts; -1 none) */
    int8_t alpha_one_sided[2], alpha_two_sided[2];
    bool drawn;         /* any pass drew triangles of it this frame */
} VisibleChunk;

/* The opaque and alpha-tested passes draw their chunks in RENDER_ROUNDS rounds of one build each (a call or
 * two per arena, not one per dissolving chunk): 0, the chunks at one resolution (CLEAR or FOGGED); 1 and 2,
 * the full- and the half-resolution faces of the chunks dissolving between them (FADE_FULL, FADE_HALF).
 * Whether chunk v draws in `round`, and if so at which resolution (*side: 0 full, 1 half) and build. */
#define RENDER_ROUNDS 3
static inline bool render_chunk_round(const VisibleChunk *v, int round, int *side, int *build)
{
    bool dissolving = v->lod_share > 0.0f && v->lod_share < 1.0f;
    if (dissolving != (round > 0))
        return false;
    *side = round > 0 ? round - 1 : v->lod_share >= 1.0f;
    *build = round > 0 ? RENDER_FADE_FULL + round - 1 : v->fogged ? RENDER_FOGGED : RENDER_CLEAR;
    return true;
}

#define RENDER_FRAMES_IN_FLIGHT 2
#define RENDER_HORIZON_REST 15   /* frames a moving camera goes without an occluder horizon that hid little */

struct Renderer {
    int width, height;
    int view_distance_chunks;
    TerrainShader opaque;           /* opaque pass: terrain.frag with OPAQUE */
    TerrainShader terrain;          /* transparent pass: terrain.frag, its alpha blended (CLEAR and FOGGED) */
    TerrainShader cutout;           /* alpha-tested pass: discards alpha < 0.5 */
    TerrainShader leaves;           /* far leaves: one-sided, cut out at alpha 0.25 (terrain_leaves.frag) */
    char *shader_dir;               /* the terrain builds linked later read their files here */
    char *terrain_fade;             /* terrain_fade.glsl's text, which the FADE builds call */
    float far_leaves_from;      /* chunks this far (horizontal, to the centre) draw leaves so; 0: never */
    float lod_from;             /* chunks this far draw their half-resolution faces (RENDER_LOD_FROM); 0: never */
    float lod_dissolve;         /* seconds a chunk crossing lod_from dissolves (RENDER_LOD_DISSOLVE_SECONDS) */
    RenderAtlas atlas;
    ChunkBufferTable chunks;
    RenderOverlay overlay;
    RenderUi ui;
    RenderSky sky;
    RenderEditOverlay edit_overlay;
    RenderFar far;
    RenderStats stats;
    VisibleChunk *visible;
    int visible_capacity;
    GLuint slot_buffer, slot_texture; /* the slot table */
    float *slot_data;              /* CPU copy, slot_capacity * RENDER_SLOT_TEXELS * 4 floats */
    int slot_capacity;
    RenderBatch batch;
    struct VisibilityWalk *walk; /* occlusion culling of slices (visibility.h); created on first use */
    VisibilityView walk_view;    /* the view of its last run (far terrain asks the same horizon) */
    /* Frame pacing: a fence after each frame; before drawing, wait for the one RENDER_FRAMES_IN_FLIGHT
     * frames back, so a driver that never blocks in swap (SDL's offscreen EGL on llvmpipe) cannot queue
     * unbounded frames (seen: 2.5 GB after 400 frames). */
    GLsync frame_fences[RENDER_FRAMES_IN_FLIGHT];
    int frame_index;
    /* the biome fog (renderer_set_fog; render_sky.c) */
    bool biome_fog;
    float biome_fog_rgb[3], biome_fog_density;
};

/* ---- render_batch.c ---- */

/* Draws the queued runs of the batch's arena in one call. */
void renderer_batch_flush(Renderer *r);
/* Queues the chosen subsets of one chunk, at full or half resolution (`lod`), only the slices the occlusion
 * walk reached, as contiguous runs. Returns triangles. */
long renderer_batch_subsets(Renderer *r, const RenderChunk *c, unsigned mask, uint16_t slices, bool lod);
/* One part of a chunk's alpha-tested subset (MeshAlphaPart), of the slices the occlusion walk reached.
 * Returns triangles. */
long renderer_batch_alpha_part(Renderer *r, const RenderChunk *c, uint16_t slices, MeshAlphaPart part);
/* Binds build `build` (RENDER_CLEAR ...) of the pass's shader, drawing what is queued first on a change. */
void renderer_pass_use(Renderer *r, RenderPass *pass, int build);

/* ---- render_terrain_shader.c ---- */

/* Links build `build` (RENDER_CLEAR ...) of `shader` from the renderer's shader folder. */
StResult renderer_link_terrain(const Renderer *r, TerrainShader *shader, int build);
/* Build `build` of `shader`, linked now if it is not yet; one that fails to link is logged once and the
 * CLEAR build stands in from then on. */
const TerrainProgram *renderer_terrain_program(Renderer *r, TerrainShader *shader, int build);

#endif
