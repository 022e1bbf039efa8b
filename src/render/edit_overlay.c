/* edit_overlay.c — what editing adds over the world: the wireframe box of a brush's volume, the particles
 * of destroyed blocks, and the tool strip at the bottom of the screen.
 *
 * Design: like overlay.c (whose flat-colour program it borrows), one streaming VBO refilled each frame from
 * a CPU staging array: 24 line vertices for the box, then 6 quads per particle (a small cube, camera
 * relative, computed in double), then 2 quads per strip swatch (a dark frame, light when selected, around
 * the colour). Particles are depth tested; the box is drawn twice, faint through the terrain and solid
 * where visible, so the volume reads even when buried. */
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"

struct OverlayVertex {
    float x, y, z;
    uint8_t color[4];
};
typedef struct OverlayVertex EditVertex;

#define EDIT_BOX_VERTICES 24
#define EDIT_MAX_PARTICLES 1024
#define EDIT_CAPACITY (EDIT_BOX_VERTICES + EDIT_MAX_PARTICLES * 24 + RENDER_STRIP_MAX * 8)

StResult render_edit_overlay_create(RenderEditOverlay *eo, RenderQuadIndices *indices)
{
    memset(eo, 0, sizeof *eo);
    eo->scratch_capacity = EDIT_CAPACITY;
    eo->scratch = malloc((size_t)EDIT_CAPACITY * sizeof(EditVertex));
    if (!eo->scratch) return st_fail(ST_ERR_NOMEM, "renderer: out of memory for the edit overlay");
    render_quad_indices_ensure(indices, EDIT_CAPACITY / 4);
    glGenVertexArrays(1, &eo->vao);
    glGenBuffers(1, &eo->vbo);
    glBindVertexArray(eo->vao);
    glBindBuffer(GL_ARRAY_BUFFER, eo->vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(EditVertex), (const void *)offsetof(EditVertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(EditVertex), (const void *)offsetof(EditVertex, color));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices->buffer);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return ST_OK;
}

void render_edit_overlay_destroy(RenderEditOverlay *eo)
{
    if (eo->vao) glDeleteVertexArrays(1, &eo->vao);
    if (eo->vbo) glDeleteBuffers(1, &eo->vbo);
    free(eo->scratch);
    memset(eo, 0, sizeof *eo);
}

static void vtx(EditVertex *v, float x, float y, float z, const uint8_t c[4])
{
    v->x = x;
    v->y = y;
    v->z = z;
    memcpy(v->color, c, 4);
}

static void build_box(EditVertex *out, const int lo_cell[3], const int hi_cell[3], const double cam[3])
{
    static const uint8_t color[4] = {255, 230, 80, 255};
    float lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = (float)((double)lo_cell[a] - cam[a]) - 0.02f;
        hi[a] = (float)((double)hi_cell[a] + 1.0 - cam[a]) + 0.02f;
    }
    static const int edges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                     {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    for (int e = 0; e < 12; e++)
        for (int k = 0; k < 2; k++) {
            int i = edges[e][k];
            vtx(&out[e * 2 + k], (i & 1) ? hi[0] : lo[0], (i & 2) ? hi[1] : lo[1], (i & 4) ? hi[2] : lo[2], color);
        }
}

/* A small cube: 6 quads, sides shaded so it reads as a solid. */
static void build_particle(EditVertex *out, const RenderParticle *p, const double cam[3])
{
    static const float shade[6] = {0.8f, 0.7f, 0.8f, 0.7f, 1.0f, 0.5f};
    static const int faces[6][4] = {{4, 5, 7, 6}, {1, 3, 7, 5}, {0, 2, 3, 1}, {0, 4, 6, 2}, {2, 6, 7, 3}, {0, 1, 5, 4}};
    float h = p->size * 0.5f, c[3];
    for (int a = 0; a < 3; a++) c[a] = (float)(p->position[a] - cam[a]);
    for (int f = 0; f < 6; f++) {
        uint8_t col[4] = {(uint8_t)(p->color[0] * shade[f]), (uint8_t)(p->color[1] * shade[f]),
                          (uint8_t)(p->color[2] * shade[f]), 255};
        for (int k = 0; k < 4; k++) {
            int i = faces[f][k];
            vtx(&out[f * 4 + k], c[0] + ((i & 1) ? h : -h), c[1] + ((i & 2) ? h : -h), c[2] + ((i & 4) ? h : -h), col);
        }
    }
}

static void quad(EditVertex *out, float x0, float y0, float x1, float y1, const uint8_t c[4])
{
    vtx(&out[0], x0, y0, 0, c);
    vtx(&out[1], x1, y0, 0, c);
    vtx(&out[2], x1, y1, 0, c);
    vtx(&out[3], x0, y1, 0, c);
}

static int build_strip(EditVertex *out, const RenderFrame *f, int width, int height)
{
    float s = (float)height / 14.0f;
    if (s < 20.0f) s = 20.0f;
    if (s > 56.0f) s = 56.0f;
    float gap = s * 0.15f, total = (float)f->strip_count * (s + gap) - gap;
    float x = ((float)width - total) * 0.5f, y1 = (float)height - gap * 2.0f, y0 = y1 - s;
    int n = 0;
    for (int i = 0; i < f->strip_count && i < RENDER_STRIP_MAX; i++, x += s + gap) {
        bool sel = i == f->strip_selected;
        uint8_t frame[4] = {sel ? 250 : 20, sel ? 250 : 20, sel ? 250 : 20, sel ? 255 : 170};
        uint8_t col[4] = {f->strip_colors[i][0], f->strip_colors[i][1], f->strip_colors[i][2], 255};
        float b = sel ? s * 0.12f : s * 0.07f;
        quad(out + n, x - b, y0 - b, x + s + b, y1 + b, frame);
        quad(out + n + 4, x, y0, x + s, y1, col);
        n += 8;
    }
    return n;
}

void render_edit_overlay_draw(RenderEditOverlay *eo, const RenderOverlay *overlay, mat4 view_proj,
                              const double camera[3], const RenderFrame *frame, int width, int height)
{
    int particles = frame->particle_count < EDIT_MAX_PARTICLES ? frame->particle_count : EDIT_MAX_PARTICLES;
    if (!frame->preview && particles <= 0 && frame->strip_count <= 0) return;
    EditVertex *v = eo->scratch;
    int box = 0, part = EDIT_BOX_VERTICES, strip = part + particles * 24;
    if (frame->preview) build_box(v, frame->preview_min, frame->preview_max, camera);
    for (int i = 0; i < particles; i++) build_particle(v + part + i * 24, &frame->particles[i], camera);
    int strip_vertices = frame->strip_count > 0 ? build_strip(v + strip, frame, width, height) : 0;
    int total = strip + strip_vertices, bytes = total * (int)sizeof(EditVertex);

    glBindVertexArray(eo->vao);
    glBindBuffer(GL_ARRAY_BUFFER, eo->vbo);
    if (bytes > eo->vbo_bytes) eo->vbo_bytes = bytes;
    glBufferData(GL_ARRAY_BUFFER, eo->vbo_bytes, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, v);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glUseProgram(overlay->program);
    glUniformMatrix4fv(overlay->u_mvp, 1, GL_FALSE, (const float *)view_proj);
    glDisable(GL_CULL_FACE);
    if (particles > 0)
        glDrawElementsBaseVertex(GL_TRIANGLES, particles * 6 * 6, GL_UNSIGNED_INT, NULL, part);
    if (frame->preview) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        glDrawArrays(GL_LINES, box, EDIT_BOX_VERTICES);
        glDisable(GL_DEPTH_TEST);
        glBlendColor(0, 0, 0, 0.35f);
        glBlendFunc(GL_CONSTANT_ALPHA, GL_ONE_MINUS_CONSTANT_ALPHA);
        glDrawArrays(GL_LINES, box, EDIT_BOX_VERTICES);
        glEnable(GL_DEPTH_TEST);
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
    }
    if (strip_vertices > 0) {
        mat4 pixels;
        glm_ortho(0.0f, (float)width, (float)height, 0.0f, -1.0f, 1.0f, pixels);
        glUniformMatrix4fv(overlay->u_mvp, 1, GL_FALSE, (const float *)pixels);
        glDisable(GL_DEPTH_TEST);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDrawElementsBaseVertex(GL_TRIANGLES, strip_vertices / 4 * 6, GL_UNSIGNED_INT, NULL, strip);
        glDisable(GL_BLEND);
        glEnable(GL_DEPTH_TEST);
    }
    glBindVertexArray(0);
}
