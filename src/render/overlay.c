/* overlay.c — what is drawn over the world: the targeted block's outline, the crosshair, the HUD text.
 *
 * Design: one tiny flat-colour program and one streaming VBO. Each frame the CPU writes every overlay
 * vertex into one staging array — 24 line vertices for the outline, 2 crosshair quads, then the HUD's
 * backdrop quads and its stb_easy_font glyph quads (whose vertex layout, float3 + ubyte4, is ours) — and
 * uploads it once (orphaning the old storage). Quads reuse the terrain's shared quad index buffer with a
 * base vertex. The outline is in camera-relative world space (computed in double, so it holds far from
 * the origin); the crosshair is white on a dark rim so it reads on any background; HUD text sits on a
 * translucent dark band per line and is scaled up with the window height. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wmissing-braces"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop
#include "render_internal.h"
#include "strata/log.h"

typedef struct OverlayVertex {
    float x, y, z;
    uint8_t color[4];
} OverlayVertex;
_Static_assert(sizeof(OverlayVertex) == 16, "stb_easy_font writes 16-byte vertices");

#define OVERLAY_OUTLINE_VERTICES 24
#define OVERLAY_CROSSHAIR_VERTICES 24
#define OVERLAY_HUD_LINE_CHARS 160
#define OVERLAY_OUTLINE_GROW 0.003f  /* the outline cube is this much larger than the cell on each side */
/* Outline vertices are pulled toward the eye by this fraction of their distance: the same place on
 * screen, but a depth margin that grows with distance. A line's depth is taken at pixel centres up to
 * half a pixel off the line, where a surface seen at a grazing angle is already a few hundredths of a
 * block nearer; a fixed grow alone loses the edges that run across the screen. */
#define OVERLAY_OUTLINE_PULL 0.99f
#define OVERLAY_CHAR_VERTICES 72     /* generous per-character budget (~270 bytes per char in stb_easy_font) */
#define OVERLAY_CAPACITY (OVERLAY_OUTLINE_VERTICES + OVERLAY_CROSSHAIR_VERTICES + \
                          RENDER_HUD_LINES * (4 + OVERLAY_HUD_LINE_CHARS * OVERLAY_CHAR_VERTICES))

StResult render_overlay_create(RenderOverlay *overlay, const char *shader_dir, RenderQuadIndices *indices)
{
    memset(overlay, 0, sizeof *overlay);
    StResult rc = render_shader_load(shader_dir, "overlay.vert", "overlay.frag", &overlay->program);
    if (rc != ST_OK)
        return rc;
    overlay->u_mvp = render_shader_uniform(overlay->program, "u_mvp");
    overlay->scratch_capacity = OVERLAY_CAPACITY;
    overlay->scratch = malloc((size_t)overlay->scratch_capacity * sizeof(OverlayVertex));
    if (!overlay->scratch) {
        render_overlay_destroy(overlay);
        return st_fail(ST_ERR_NOMEM, "renderer: out of memory for the overlay buffer");
    }
    render_quad_indices_ensure(indices, OVERLAY_CAPACITY / 4);
    glGenVertexArrays(1, &overlay->vao);
    glGenBuffers(1, &overlay->vbo);
    glBindVertexArray(overlay->vao);
    glBindBuffer(GL_ARRAY_BUFFER, overlay->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(OverlayVertex), (const void *)offsetof(OverlayVertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(OverlayVertex),
                          (const void *)offsetof(OverlayVertex, color));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices->buffer);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return ST_OK;
}

void render_overlay_destroy(RenderOverlay *overlay)
{
    if (overlay->vao)
        glDeleteVertexArrays(1, &overlay->vao);
    if (overlay->vbo)
        glDeleteBuffers(1, &overlay->vbo);
    if (overlay->program)
        glDeleteProgram(overlay->program);
    free(overlay->scratch);
    memset(overlay, 0, sizeof *overlay);
}

static void overlay_vertex(OverlayVertex *v, float x, float y, float z, const uint8_t color[4])
{
    v->x = x;
    v->y = y;
    v->z = z;
    memcpy(v->color, color, 4);
}

/* 12 edges of the block's box in its cell (the whole cell, or a snow layer's slab, a torch, a plant), grown
 * slightly and pulled toward the eye so the faces never hide them. */
static void overlay_build_outline(OverlayVertex *out, const RenderFrame *frame, const double camera[3])
{
    static const uint8_t color[4] = { 0, 0, 0, 170 };
    const float *box_lo = frame->highlight_min, *box_hi = frame->highlight_max;
    bool whole = box_hi[0] <= box_lo[0] && box_hi[1] <= box_lo[1] && box_hi[2] <= box_lo[2];
    float lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        double cell = (double)frame->highlight_cell[a] - camera[a];
        double b0 = whole ? 0.0 : (double)box_lo[a], b1 = whole ? 1.0 : (double)box_hi[a];
        lo[a] = ((float)(cell + b0) - OVERLAY_OUTLINE_GROW) * OVERLAY_OUTLINE_PULL;
        hi[a] = ((float)(cell + b1) + OVERLAY_OUTLINE_GROW) * OVERLAY_OUTLINE_PULL;
    }
    float corner[8][3];
    for (int i = 0; i < 8; i++) {
        corner[i][0] = (i & 1) ? hi[0] : lo[0];
        corner[i][1] = (i & 2) ? hi[1] : lo[1];
        corner[i][2] = (i & 4) ? hi[2] : lo[2];
    }
    static const int edges[12][2] = {
        { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 },  /* along x */
        { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 },  /* along y */
        { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 },  /* along z */
    };
    for (int e = 0; e < 12; e++)
        for (int k = 0; k < 2; k++) {
            const float *p = corner[edges[e][k]];
            overlay_vertex(&out[e * 2 + k], p[0], p[1], p[2], color);
        }
}

static void overlay_quad(OverlayVertex *out, float x0, float y0, float x1, float y1, const uint8_t color[4])
{
    overlay_vertex(&out[0], x0, y0, 0.0f, color);
    overlay_vertex(&out[1], x1, y0, 0.0f, color);
    overlay_vertex(&out[2], x1, y1, 0.0f, color);
    overlay_vertex(&out[3], x0, y1, 0.0f, color);
}

/* Crosshair in pixels: a white cross over a slightly larger dark one, so it reads on sky, stone and
 * snow alike (an inverting cross vanishes on mid grey). 6 quads. */
static void overlay_build_crosshair(OverlayVertex *out, int width, int height)
{
    static const uint8_t dark[4] = { 0, 0, 0, 150 }, white[4] = { 255, 255, 255, 230 };
    float cx = (float)(width / 2), cy = (float)(height / 2);
    float arm = (float)(height / 60 > 6 ? height / 60 : 6), thick = height >= 600 ? 1.5f : 1.0f, edge = 1.0f;
    /* The vertical bars skip the middle the horizontal ones cover: blending twice would darken it. */
    overlay_quad(out, cx - arm - edge, cy - thick - edge, cx + arm + edge, cy + thick + edge, dark);
    overlay_quad(out + 4, cx - thick - edge, cy - arm - edge, cx + thick + edge, cy - thick - edge, dark);
    overlay_quad(out + 8, cx - thick - edge, cy + thick + edge, cx + thick + edge, cy + arm + edge, dark);
    overlay_quad(out + 12, cx - arm, cy - thick, cx + arm, cy + thick, white);
    overlay_quad(out + 16, cx - thick, cy - arm, cx + thick, cy - thick, white);
    overlay_quad(out + 20, cx - thick, cy + thick, cx + thick, cy + arm, white);
}

/* HUD lines: a dark band per line, then the glyph quads. Returns vertices written (all quads). */
static int overlay_build_hud(OverlayVertex *out, int capacity, const RenderFrame *frame)
{
    static const uint8_t backdrop[4] = { 0, 0, 0, 140 };
    static uint8_t text_color[4] = { 240, 240, 240, 255 };
    char lines[RENDER_HUD_LINES][OVERLAY_HUD_LINE_CHARS + 1];
    int count = 0;
    while (count < RENDER_HUD_LINES && frame->hud_lines[count]) {
        snprintf(lines[count], sizeof lines[count], "%s", frame->hud_lines[count]);
        for (char *c = lines[count]; *c; c++) /* stb_easy_font knows ASCII 32..126 only */
            if (*c < 32 || *c > 126)
                *c = '?';
        count++;
    }
    int written = 0;
    /* Backdrops first so the text draws over them in the same call. */
    for (int i = 0; i < count && written + 4 <= capacity; i++) {
        float y = 4.0f + (float)i * 11.0f;
        int w = stb_easy_font_width(lines[i]);
        if (w > 0) {
            overlay_quad(out + written, 2.0f, y - 2.0f, 4.0f + (float)w + 2.0f, y + 9.0f, backdrop);
            written += 4;
        }
    }
    for (int i = 0; i < count; i++) {
        int bytes_left = (capacity - written) * (int)sizeof(OverlayVertex);
        if (bytes_left <= 0)
            break;
        int quads = stb_easy_font_print(4.0f, 4.0f + (float)i * 11.0f, lines[i], text_color, out + written, bytes_left);
        written += quads * 4;
    }
    return written;
}

void render_overlay_draw(RenderOverlay *overlay, mat4 view_proj,
                         const double camera[3], const RenderFrame *frame, int width, int height)
{
    OverlayVertex *v = overlay->scratch;
    int outline = 0, crosshair = OVERLAY_OUTLINE_VERTICES, hud = crosshair + OVERLAY_CROSSHAIR_VERTICES;
    if (frame->highlight)
        overlay_build_outline(v, frame, camera);
    overlay_build_crosshair(v + crosshair, width, height);
    int scale = (height + 150) / 300; /* text pixels: 1 up to 449 px high, 2 at 720, 4 at 1080+ */
    scale = scale < 1 ? 1 : scale > 4 ? 4 : scale;
    int hud_vertices = frame->show_hud ? overlay_build_hud(v + hud, overlay->scratch_capacity - hud, frame) : 0;
    int total = hud + hud_vertices;

    glBindVertexArray(overlay->vao);
    glBindBuffer(GL_ARRAY_BUFFER, overlay->vbo);
    /* Orphan and refill: the driver hands out fresh storage instead of waiting on last frame's draw. */
    int bytes = total * (int)sizeof(OverlayVertex);
    if (bytes > overlay->vbo_bytes)
        overlay->vbo_bytes = bytes;
    glBufferData(GL_ARRAY_BUFFER, overlay->vbo_bytes, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, v);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glUseProgram(overlay->program);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);

    if (frame->highlight) {
        glDepthMask(GL_FALSE);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glUniformMatrix4fv(overlay->u_mvp, 1, GL_FALSE, (const float *)view_proj);
        glDrawArrays(GL_LINES, outline, OVERLAY_OUTLINE_VERTICES);
        glDepthMask(GL_TRUE);
    }

    glDisable(GL_DEPTH_TEST);
    mat4 pixels;
    glm_ortho(0.0f, (float)width, (float)height, 0.0f, -1.0f, 1.0f, pixels);
    glUniformMatrix4fv(overlay->u_mvp, 1, GL_FALSE, (const float *)pixels);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDrawElementsBaseVertex(GL_TRIANGLES, OVERLAY_CROSSHAIR_VERTICES / 4 * 6, GL_UNSIGNED_INT, NULL, crosshair);

    if (hud_vertices > 0) {
        mat4 text;
        glm_ortho(0.0f, (float)width / (float)scale, (float)height / (float)scale, 0.0f, -1.0f, 1.0f, text);
        glUniformMatrix4fv(overlay->u_mvp, 1, GL_FALSE, (const float *)text);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDrawElementsBaseVertex(GL_TRIANGLES, hud_vertices / 4 * 6, GL_UNSIGNED_INT, NULL, hud);
    }
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
}
