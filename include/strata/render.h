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

#define RENDER_HUD_LINES 8
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
    bool show_hud;
    const char *hud_lines[RENDER_HUD_LINES]; /* NULL-terminated early if fewer */
    float frame_seconds;          /* elapsed since the previous frame (fade-in) */
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

typedef struct RenderStats {
    int chunks_resident;          /* chunks with GPU buffers */
    int chunks_drawn;             /* after frustum culling */
    long triangles_drawn;
    int uploads_pending;
} RenderStats;

typedef struct Renderer Renderer;

/* Requires a current GL 3.3 core context. ST_ERR_GL if the loader or a shader fails, ST_ERR_IO if a
 * file is missing; the message names what. */
StResult renderer_create(const RendererConfig *config, RenderGetProc get_proc, Renderer **out);
void renderer_destroy(Renderer *renderer);
void renderer_resize(Renderer *renderer, int width, int height);

/* Takes ownership of `mesh` (replaces the chunk's previous geometry). */
void renderer_set_chunk_mesh(Renderer *renderer, const TerrainChunk *chunk, ChunkMesh *mesh);
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

/* Uploads every queued mesh now, ignoring the per-frame budget, and ends every fade-in, so the next
 * renderer_draw shows all chunks that have geometry in full (before a screenshot). */
void renderer_flush_uploads(Renderer *renderer, const RenderCamera *camera);
/* The sky (clear and fog) colour, linear 0..1 RGB, for a time of day and sky brightness. Pure; any thread. */
void renderer_sky_color(float time_of_day, float sky_brightness, float rgb[3]);

#endif
