/* render.h — the renderer: the only module that calls OpenGL.
 *
 * CPU data first, then an explicit upload: the game hands each finished ChunkMesh to the renderer, which
 * uploads it under a per-frame budget and frees the CPU copy. Draws sky, opaque subsets (chosen by the
 * camera side), alpha-tested, then transparent chunks far to near, with fog and a fade-in of new chunks,
 * the block outline, crosshair and HUD text.
 * Threads: main thread only, with the GL context current. renderer_create loads GL through get_proc
 * (SDL_GL_GetProcAddress), so render/ needs no SDL. */
#ifndef STRATA_RENDER_H
#define STRATA_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/error.h"
#include "strata/far_terrain.h"
#include "strata/mesher.h"

typedef void *(*RenderGetProc)(const char *name);

typedef struct RendererConfig {
    const char *asset_dir;        /* holds textures/atlas.png */
    const char *shader_dir;       /* holds *.vert / *.frag */
    const BlockRegistry *blocks;
    int width, height;            /* framebuffer size in pixels */
    int view_distance_chunks;     /* voxel view distance: fog ends there */
} RendererConfig;

typedef struct RenderCamera {
    double position[3];           /* eye position, world blocks (double: far from the origin) */
    float yaw_deg, pitch_deg;     /* yaw 0 looks toward -Z, 90 toward +X; pitch -90 looks straight down */
    float fov_y_deg;
} RenderCamera;

#define RENDER_HUD_LINES 9
#define RENDER_STRIP_MAX 16

/* A particle of a block's burst (edit.h's DestroyCell): a small cube of one colour. */
typedef struct RenderParticle {
    double position[3];           /* world blocks */
    float size;                   /* edge, blocks */
    uint8_t color[3];
} RenderParticle;

typedef struct RenderFrame {
    float time_of_day;            /* 0..1, 0.5 = noon: sky colour */
    float sky_brightness;         /* 0..1: dims the sky (and fog) colour by 0.5 + 0.5 * brightness */
    bool highlight;               /* draw the outline of the targeted block */
    int highlight_cell[3];
    float highlight_min[3], highlight_max[3]; /* the outline's box in the cell, 0..1 (block_shape_bounds); both
                                               * all 0: the whole cell */
    bool show_hud;
    const char *hud_lines[RENDER_HUD_LINES]; /* NULL-terminated early if fewer */
    float frame_seconds;          /* elapsed since the previous frame (fade-in) */
    int eye_medium;               /* RENDER_MEDIUM_*: what the camera is inside (fog and backdrop follow it) */
    bool sky_detail;              /* draw the sky dome: gradient, sun, moon, stars, clouds (else a flat clear) */
    double game_seconds;          /* clouds drift with it */
    float upload_ms;              /* time this frame may spend uploading queued meshes (nearest first); 0 means
                                   * RENDER_UPLOAD_MS_DEFAULT. At least one mesh goes up per frame. */
    /* Editing (edit_overlay.c): the wireframe box of the cells a brush or tool will touch, the particles
     * of destroyed blocks, and a strip of colour swatches at the bottom (tool and blocks), `strip_selected`
     * framed (-1: none). All optional: zero draws nothing. */
    bool preview;
    int preview_min[3], preview_max[3];  /* inclusive cells */
    const RenderParticle *particles;
    int particle_count;
    uint8_t strip_colors[RENDER_STRIP_MAX][3];
    int strip_count, strip_selected;
} RenderFrame;

#define RENDER_UPLOAD_MS_DEFAULT 4.0f

/* The camera inside water: a blue fog ending RENDER_WATER_FOG_END blocks away (no sky); inside lava an orange
 * one at RENDER_LAVA_FOG_END; inside a solid block nothing of the world is drawn (no x-ray). The game adds
 * the tinted overlay. */
enum { RENDER_MEDIUM_AIR = 0, RENDER_MEDIUM_WATER, RENDER_MEDIUM_LAVA, RENDER_MEDIUM_SOLID };
#define RENDER_WATER_FOG_END 20.0f
#define RENDER_LAVA_FOG_END 3.0f

/* Chunks by distance (horizontal, camera to chunk centre, blocks). From RENDER_FAR_LEAVES_FROM a chunk's
 * leaves are drawn one-sided (back faces culled, terrain_leaves.frag) in a pass of their own instead of
 * two-sided: from a chunk or so away a canopy's far side barely shows through its near side's holes, and the
 * two-sided pass cost seed 42's spawn a quarter of its frame, most of it in the canopies 20 to 40 blocks
 * off (from 32: 21.2 -> 24.6 fps; from 20 instead of 32: another 5%; screenshots differ in ~0.5% of
 * pixels, in what shows through the holes of canopies 20 to 30 blocks off). From RENDER_LOD_FROM a chunk
 * draws its faces at half resolution (2 x 2 x 2 cells a block: ChunkMesh.lod_vertices, mesher_lod.c), opaque
 * and leaves: a cell is ~11 pixels there, and the ragged outside of canopies and hills, most of a view's
 * triangles, shrinks to about a quarter. STRATA_FAR_LEAVES_FROM and STRATA_LOD_FROM override them (0: never). */
#define RENDER_FAR_LEAVES_FROM 20.0f
#define RENDER_LOD_FROM 48.0f

/* Whether a chunk at `distance` draws its half-resolution faces (lod_from 0: never). Pure. */
static inline bool render_uses_lod(float distance, float lod_from)
{
    return lod_from > 0.0f && distance >= lod_from;
}

/* Which copy of a chunk's mesh is drawn (the update worker builds only the copies wanted at the player's
 * distance, update.h): the half-resolution one where the mesh has it (`has_far`, ChunkMesh.lod) and the
 * chunk is far (render_uses_lod), or where it has nothing else (`far_only`, ChunkMesh.far_only: a chunk the
 * player came near before its full resolution arrived), never nothing. Pure. */
static inline bool render_chunk_draws_far(bool has_far, bool far_only, float distance, float lod_from)
{
    return has_far && (far_only || render_uses_lod(distance, lod_from));
}

/* A chunk that crosses RENDER_LOD_FROM does not switch at once: it dissolves from one resolution to the other
 * over this long (a screen-door dither; both are drawn meanwhile), so the switch does not pop. Short, as the
 * chunk costs both while it lasts: in the flight benchmark 0.5 s took about 7% more CPU a frame, 0.25 s about
 * 2% (medians of 3 to 6 runs; the machine's noise is as large). */
#define RENDER_LOD_DISSOLVE_SECONDS 0.25f

/* A chunk's share of half resolution (0 full .. 1 half) after `seconds` more toward `half`, dissolving over
 * `dissolve` seconds (RENDER_LOD_DISSOLVE_SECONDS; 0: at once); a share below 0 (a chunk just shown, or after a
 * teleport) takes its target at once. Pure. */
static inline float render_lod_share_step(float share, bool half, float seconds, float dissolve)
{
    float target = half ? 1.0f : 0.0f;
    if (share < 0.0f || !(dissolve > 0.0f))
        return target;
    float step = seconds > 0.0f ? seconds / dissolve : 0.0f;
    return share < target ? (share + step < target ? share + step : target)
                          : (share - step > target ? share - step : target);
}

/* The parts of a chunk's alpha-tested subset drawn at `distance`, at full or half resolution (`half`):
 * *one_sided in the far-leaves pass, *two_sided in the cut-out pass (-1: none). far_from: the distance above
 * (0: never); the half-resolution leaves are the far leaves' (a chunk nearer than far_from draws its own). A
 * chunk drawn at half resolution draws no plants, torches or other cut-outs: they stand on the cells' ground,
 * which its copy may round down by a cell (they would float), and they are a few pixels there. Pure; the
 * renderer's rule, also counted by strata-bench. */
static inline void render_alpha_parts(float distance, float far_from, bool half, int *one_sided, int *two_sided)
{
    bool far = far_from > 0.0f && distance >= far_from;
    bool lod = far && half;
    *one_sided = !far ? -1 : lod ? MESH_ALPHA_LOD_LEAVES : MESH_ALPHA_LEAVES;
    *two_sided = lod ? -1 : far ? MESH_ALPHA_REST : MESH_ALPHA_NEAR;
}

typedef struct RenderStats {
    int chunks_resident;          /* chunks with GPU buffers */
    int chunks_drawn;             /* after frustum culling */
    long triangles_drawn;
    int uploads_pending;
    int chunks_fading;            /* chunks with geometry whose fade-in has not finished */
    int draw_calls;               /* GL draw calls of the last world frame: terrain passes and far terrain */
    int chunk_draws;              /* (chunk, pass) pairs drawn: the calls a draw per chunk would have made */
    int arenas;                   /* geometry arenas (big vertex buffers) in use */
} RenderStats;

typedef struct Renderer Renderer;

/* Requires a current GL 3.3 core context. ST_ERR_GL if the loader or a shader fails, ST_ERR_IO if a
 * file is missing; the message names what. */
StResult renderer_create(const RendererConfig *config, RenderGetProc get_proc, Renderer **out);
void renderer_destroy(Renderer *renderer);
void renderer_resize(Renderer *renderer, int width, int height);
/* The fog range follows a new view distance (chunks, 2..32) from the next draw. */
void renderer_set_view_distance(Renderer *renderer, int view_distance_chunks);

/* Takes ownership of `mesh` (replaces the chunk's previous geometry). */
void renderer_set_chunk_mesh(Renderer *renderer, const TerrainChunk *chunk, ChunkMesh *mesh);
/* Far terrain to draw from the next renderer_draw on (NULL/0: none): the patches stay owned by the caller's
 * FarTerrain and must stay valid until the next call; far_distance (blocks, 0 = off) moves the fog out. */
void renderer_set_far_patches(Renderer *renderer, const FarPatch *const *patches, int count, float far_distance);
/* Whether the renderer has uploaded far patch `key`; if so it keeps that copy from now on, whether or not the
 * patch is handed over, until renderer_far_forget (far_terrain_release_meshes's FarKeepFn: the FarTerrain may
 * then free its own copy). */
bool renderer_far_keep(Renderer *renderer, uint64_t key);
/* Drops the renderer's copy of far patch `key` (far_terrain_take_forgotten's keys); none there: nothing. */
void renderer_far_forget(Renderer *renderer, uint64_t key);
/* Puts the atlas into `palette` (far_palette_init first): each defined block's top colour becomes its top
 * tile's mean colour (the tile's last mip level), which is how the voxel chunks look at the far terrain's
 * edge. Any thread after renderer_create (no GL). */
void renderer_far_palette(const Renderer *renderer, FarPalette *palette);
/* The biome fog from the next renderer_draw on (the game eases it; biome.h): `rgb` is the fog's noon colour
 * 0..1, `density` 0..1 the fraction of the view distance its band covers (1/3: the plain fog). Until the first
 * call the fog is the plain one. Main thread. */
void renderer_set_fog(Renderer *renderer, const float rgb[3], float density);
/* Drops the chunk's GPU buffers. */
void renderer_release_chunk(Renderer *renderer, const TerrainChunk *chunk);
/* The player just changed cells of (or next to) this chunk: its meshes arriving during the next
 * RENDER_URGENT_DRAWS (120) draws are uploaded at once, ahead of and outside the per-frame budget, so an
 * edit shows as soon as the worker has remeshed it. A chunk the renderer does not know is ignored. */
void renderer_mark_edited(Renderer *renderer, int coord_x, int coord_z);

void renderer_draw(Renderer *renderer, const RenderCamera *camera, const RenderFrame *frame);
/* Writes the current back buffer as PNG (call after renderer_draw, before swapping). */
StResult renderer_screenshot(Renderer *renderer, const char *path);
/* Reads a w x h box of the current back buffer into rgba_out (w * h * 4 bytes, rows top to bottom); x, y
 * are the box's top-left corner counted from the framebuffer's top-left. Call after renderer_draw, before
 * swapping. ST_ERR_ARG if the box is empty or leaves the framebuffer, ST_ERR_GL if the read fails. */
StResult renderer_read_pixels(Renderer *renderer, int x, int y, int w, int h, uint8_t *rgba_out);
void renderer_get_stats(const Renderer *renderer, RenderStats *stats);
/* Seconds a chunk that has just arrived takes to fade in fully from its haze to the fog range at this
 * renderer's view distance (in the renderer's time: the frame_seconds handed to renderer_draw). */
double renderer_fade_in_seconds(const Renderer *renderer);

/* A frame with no world behind it (the loading screen): uploads queued meshes for up to frame->upload_ms
 * (nearest the camera first), clears to `backdrop` (linear RGB) and draws the queued UI (renderer_ui_*). */
void renderer_draw_loading(Renderer *renderer, const RenderCamera *camera, const RenderFrame *frame,
                           const float backdrop[3]);
/* Ends every fade-in: all chunks uploaded so far are shown whole from the next draw (the end of a loading
 * screen). Chunks that arrive later still fade in. */
void renderer_end_fades(Renderer *renderer);
/* true when the chunk's latest mesh has been uploaded (or it has none queued). */
bool renderer_chunk_uploaded(const Renderer *renderer, int coord_x, int coord_z);
/* true when the chunk has a mesh to draw: one was uploaded (empty or not), though a newer one may be queued
 * or the chunk be meshed again (an edit, copies it now wants). */
bool renderer_chunk_drawable(const Renderer *renderer, int coord_x, int coord_z);
/* The distance (blocks, horizontal, camera to chunk centre) from which chunks are drawn from their far copy:
 * RENDER_LOD_FROM, or STRATA_LOD_FROM's; 0 never. What the game tells the update worker (UpdateLocation). */
float renderer_lod_from(const Renderer *renderer);

/* ---- UI: 2D drawing in framebuffer pixels, top-left origin (render_ui.c) ----
 * Calls queue quads; the next renderer_draw or renderer_draw_loading draws them over everything, in call
 * order, and empties the queue. Colours are 0xRRGGBBAA. Text is ASCII (others show as '?'); `scale` is the
 * size of one font pixel in framebuffer pixels. */
void renderer_ui_rect(Renderer *renderer, float x, float y, float w, float h, uint32_t rgba);
void renderer_ui_text(Renderer *renderer, float x, float y, float scale, uint32_t rgba, const char *text);
/* Width and height in framebuffer pixels of `text` drawn at `scale`. */
float renderer_ui_text_width(const Renderer *renderer, float scale, const char *text);
float renderer_ui_text_height(const Renderer *renderer, float scale);
/* The block drawn as an icon with its shape (a cube seen from above at an angle; plants and torches flat)
 * from the atlas, filling the square of side `size` at (x, y). Unknown blocks draw nothing. */
void renderer_ui_block_icon(Renderer *renderer, int block, float x, float y, float size);

/* Uploads every queued mesh now, ignoring the per-frame budget, and ends every fade-in, so the next
 * renderer_draw shows all chunks that have geometry in full (before a screenshot). */
void renderer_flush_uploads(Renderer *renderer, const RenderCamera *camera);
/* Unit vector towards the sun at a time of day (rises in +X at 0.25, highest at 0.5, sets in -X at 0.75; the
 * moon is opposite). Pure; any thread. */
void renderer_sun_direction(float time_of_day, float out[3]);
/* The cloud layer's density at texel (x, z) (8 blocks a side, 192 up; any integers), 0..1 with 0.5 at a
 * cloud's edge: four octaves of smooth value noise from 128 down to 16 blocks, repeating every
 * RENDER_CLOUD_PERIOD texels (the dome's cloud texture holds one period, filtered and mipmapped), its edge set
 * so that about a third of the sky is cloud. Pure; any thread after the first call (which sets the edge). */
#define RENDER_CLOUD_PERIOD 512
float render_sky_cloud_density(int x, int z);
/* The dome's cloud texture, level 0: RENDER_CLOUD_PERIOD^2 bytes (row z, column x), each texel's density times
 * 255, rounded. The same numbers as render_sky_cloud_density, made a whole octave at a time from a table of
 * the lattice (what the renderer uploads at start-up). false when out of memory. Pure; any thread. */
bool render_sky_cloud_texels(uint8_t *cells);
/* The sky (clear and fog) colour, linear 0..1 RGB, for a time of day and sky brightness. Pure; any thread. */
void renderer_sky_color(float time_of_day, float sky_brightness, float rgb[3]);
/* The biome fog applied to a sky colour and fog range: the sky (clear, horizon and fog colour at once) is
 * tinted by fog_rgb / the noon sky, so at noon it is fog_rgb and at night or dusk it keeps the hour's light;
 * the fog band widens or narrows from the plain 1/3 in proportion to density (fog_end stays, so what is drawn
 * does not change). Pure; any thread. */
void renderer_biome_fog(const float fog_rgb[3], float density, float sky[3], float *fog_start, float fog_end);

#endif
