/* render_ui.c — 2D UI in framebuffer pixels: rectangles, text, block icons; the loading screen, hotbar,
 * picker and menus are composed from these by the game.
 *
 * Design: immediate mode with one queue a frame. renderer_ui_* append quads (x, y, u, v, colour, kind) to a
 * CPU array; the frame's draw (renderer_draw or renderer_draw_loading) uploads the array once into a
 * streaming VBO (orphaned each frame) and draws it in call order with one program and the shared quad index
 * buffer, depth off, blended. A vertex's kind picks its colour source in ui.frag: flat, the font texture's
 * coverage, or the block atlas (level 0, so icons stay sharp). Block icons are drawn with the block's shape:
 * cubes (and fluids, slabs) as three shaded faces of an isometric cube, plants and torches as their side
 * tile flat; grass, foliage and water tiles get a mid-climate summer tint, as the mesher gives them. */
#include <math.h>
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
#include <stb/stb_image.h>

#include "render_internal.h"
#include "strata/config.h"
#include "strata/log.h"

typedef struct UiVertex {
    float x, y, u, v;
    uint8_t color[4];
    float kind;
} UiVertex;

enum { UI_KIND_FLAT = 0, UI_KIND_FONT = 1, UI_KIND_ATLAS = 2 };

#define UI_EASY_FONT_CHARS 256    /* longest text drawn at once */
#define UI_TEXT_LINE 10.0f        /* a line of text is this many UI pixels high (the font's pixel height) */

/* Loads the baked font (tools/strata-font.c). */
static StResult ui_load_font(RenderUi *ui, const char *asset_dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/fonts/ui_font.json", asset_dir);
    ConfigDoc doc;
    StResult rc = config_load(path, &doc);
    if (rc != ST_OK) return rc;
    long width = 0, height = 0, first = 0, count = 0;
    double pixel_height = 0.0, ascent = 0.0;
    static double table[RENDER_FONT_GLYPHS * 7];
    int n = 0;
    if ((rc = config_get_int(&doc, doc.root, "", "width", 1, 4096, &width)) == ST_OK &&
        (rc = config_get_int(&doc, doc.root, "", "height", 1, 4096, &height)) == ST_OK &&
        (rc = config_get_int(&doc, doc.root, "", "first", RENDER_FONT_FIRST, RENDER_FONT_FIRST, &first)) == ST_OK &&
        (rc = config_get_int(&doc, doc.root, "", "count", RENDER_FONT_GLYPHS, RENDER_FONT_GLYPHS, &count)) == ST_OK &&
        (rc = config_get_number(&doc, doc.root, "", "pixel_height", 1.0, 512.0, &pixel_height)) == ST_OK &&
        (rc = config_get_number(&doc, doc.root, "", "ascent", 0.0, 512.0, &ascent)) == ST_OK)
        rc = config_get_number_array(&doc, doc.root, "", "glyphs", RENDER_FONT_GLYPHS * 7, RENDER_FONT_GLYPHS * 7,
                                     -4096.0, 4096.0, table, &n);
    config_free(&doc);
    if (rc != ST_OK) return rc;
    snprintf(path, sizeof path, "%s/fonts/ui_font.png", asset_dir);
    int w = 0, h = 0, channels = 0;
    unsigned char *pixels = stbi_load(path, &w, &h, &channels, 1);
    if (!pixels) return st_fail(ST_ERR_IO, "%s: cannot read the font bitmap (%s)", path, stbi_failure_reason());
    if (w != width || h != height) {
        stbi_image_free(pixels);
        return st_fail(ST_ERR_FORMAT, "%s: %dx%d, but ui_font.json says %ldx%ld", path, w, h, width, height);
    }
    for (int i = 0; i < RENDER_FONT_GLYPHS; i++)
        for (int k = 0; k < 7; k++) ui->glyphs[i][k] = (float)table[i * 7 + k];
    ui->font_width = w;
    ui->font_height = h;
    ui->font_pixel_height = (float)pixel_height;
    ui->font_ascent = (float)ascent;
    glGenTextures(1, &ui->font_texture);
    glBindTexture(GL_TEXTURE_2D, ui->font_texture);
    if (!render_texture_r8_mipmapped(w, h, pixels))
        log_warn(RENDER_TAG, "%s: out of memory for the font's mipmaps; small text may shimmer", path);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    stbi_image_free(pixels);
    return ST_OK;
}

StResult render_ui_create(RenderUi *ui, const char *shader_dir, const char *asset_dir, const BlockRegistry *blocks)
{
    memset(ui, 0, sizeof *ui);
    ui->blocks = blocks;
    if (ui_load_font(ui, asset_dir) != ST_OK)
        log_warn(RENDER_TAG, "%s; UI text falls back to the built-in pixel font", st_error_message());
    StResult rc = render_shader_load(shader_dir, "ui.vert", "ui.frag", &ui->program);
    if (rc != ST_OK)
        return rc;
    ui->u_mvp = render_shader_uniform(ui->program, "u_mvp");
    glUseProgram(ui->program);
    glUniform1i(render_shader_uniform(ui->program, "u_atlas"), 0);
    glUniform1i(render_shader_uniform(ui->program, "u_font"), 1);
    glUseProgram(0);
    glGenVertexArrays(1, &ui->vao);
    glGenBuffers(1, &ui->vbo);
    return ST_OK;
}

void render_ui_destroy(RenderUi *ui)
{
    if (ui->vao)
        glDeleteVertexArrays(1, &ui->vao);
    if (ui->vbo)
        glDeleteBuffers(1, &ui->vbo);
    if (ui->program)
        glDeleteProgram(ui->program);
    if (ui->font_texture)
        glDeleteTextures(1, &ui->font_texture);
    free(ui->vertices);
    memset(ui, 0, sizeof *ui);
}

/* Room for `quads` more quads; false (and a logged error) when memory runs out. */
static bool ui_reserve(RenderUi *ui, int quads)
{
    int need = ui->count + quads * 4;
    if (need <= ui->capacity)
        return true;
    int capacity = ui->capacity ? ui->capacity : 4096;
    while (capacity < need)
        capacity *= 2;
    UiVertex *v = realloc(ui->vertices, (size_t)capacity * sizeof *v);
    if (!v) {
        log_error(RENDER_TAG, "out of memory for %d UI vertices", capacity);
        return false;
    }
    ui->vertices = v;
    ui->capacity = capacity;
    return true;
}

static void ui_color(uint8_t out[4], uint32_t rgba)
{
    out[0] = (uint8_t)(rgba >> 24);
    out[1] = (uint8_t)(rgba >> 16);
    out[2] = (uint8_t)(rgba >> 8);
    out[3] = (uint8_t)rgba;
}

/* One quad from four corners (any winding) with their texture coordinates. */
static void ui_quad(RenderUi *ui, const float xy[8], const float uv[8], const uint8_t color[4], int kind)
{
    if (!ui_reserve(ui, 1))
        return;
    UiVertex *v = ui->vertices + ui->count;
    for (int i = 0; i < 4; i++) {
        v[i].x = xy[i * 2];
        v[i].y = xy[i * 2 + 1];
        v[i].u = uv ? uv[i * 2] : 0.0f;
        v[i].v = uv ? uv[i * 2 + 1] : 0.0f;
        memcpy(v[i].color, color, 4);
        v[i].kind = (float)kind;
    }
    ui->count += 4;
}

void renderer_ui_rect(Renderer *renderer, float x, float y, float w, float h, uint32_t rgba)
{
    uint8_t c[4];
    ui_color(c, rgba);
    const float xy[8] = { x, y, x + w, y, x + w, y + h, x, y + h };
    ui_quad(&renderer->ui, xy, NULL, c, UI_KIND_FLAT);
}

/* ---- text ---- */

/* The text limited to what stb_easy_font draws: printable ASCII, at most UI_EASY_FONT_CHARS. */
static void ui_clean_text(char *out, const char *text)
{
    int n = 0;
    for (const char *c = text; *c && n < UI_EASY_FONT_CHARS; c++)
        out[n++] = (*c < 32 || *c > 126) ? '?' : *c;
    out[n] = 0;
}

typedef struct EasyFontVertex {
    float x, y, z;
    uint8_t color[4];
} EasyFontVertex;

/* Font pixels to framebuffer pixels at a UI scale: a line is UI_TEXT_LINE UI pixels. */
static float ui_font_factor(const RenderUi *ui, float scale)
{
    return scale * UI_TEXT_LINE / ui->font_pixel_height;
}

void renderer_ui_text(Renderer *renderer, float x, float y, float scale, uint32_t rgba, const char *text)
{
    RenderUi *ui = &renderer->ui;
    char clean[UI_EASY_FONT_CHARS + 1];
    ui_clean_text(clean, text);
    if (ui->font_texture) {
        float f = ui_font_factor(ui, scale), pen = x, baseline = y + ui->font_ascent * f;
        uint8_t c[4];
        ui_color(c, rgba);
        float iw = 1.0f / (float)ui->font_width, ih = 1.0f / (float)ui->font_height;
        for (const char *p = clean; *p; p++) {
            const float *g = ui->glyphs[*p - RENDER_FONT_FIRST];
            if (g[2] > g[0] && g[3] > g[1]) {
                float x0 = pen + g[4] * f, y0 = baseline + g[5] * f;
                float x1 = x0 + (g[2] - g[0]) * f, y1 = y0 + (g[3] - g[1]) * f;
                const float xy[8] = { x0, y0, x1, y0, x1, y1, x0, y1 };
                const float uv[8] = { g[0] * iw, g[1] * ih, g[2] * iw, g[1] * ih, g[2] * iw, g[3] * ih, g[0] * iw, g[3] * ih };
                ui_quad(ui, xy, uv, c, UI_KIND_FONT);
            }
            pen += g[6] * f;
        }
        return;
    }
    static EasyFontVertex scratch[UI_EASY_FONT_CHARS * 72];
    uint8_t c[4];
    ui_color(c, rgba);
    int quads = stb_easy_font_print(0.0f, 0.0f, clean, c, scratch, (int)sizeof scratch);
    if (!ui_reserve(ui, quads))
        return;
    for (int q = 0; q < quads; q++) {
        float xy[8];
        for (int i = 0; i < 4; i++) {
            xy[i * 2] = x + scratch[q * 4 + i].x * scale;
            xy[i * 2 + 1] = y + scratch[q * 4 + i].y * scale;
        }
        ui_quad(ui, xy, NULL, c, UI_KIND_FLAT);
    }
}

float renderer_ui_text_width(const Renderer *renderer, float scale, const char *text)
{
    const RenderUi *ui = &renderer->ui;
    char clean[UI_EASY_FONT_CHARS + 1];
    ui_clean_text(clean, text);
    if (!ui->font_texture)
        return (float)stb_easy_font_width(clean) * scale;
    float w = 0.0f;
    for (const char *p = clean; *p; p++)
        w += ui->glyphs[*p - RENDER_FONT_FIRST][6];
    return w * ui_font_factor(ui, scale);
}

float renderer_ui_text_height(const Renderer *renderer, float scale)
{
    return renderer->ui.font_texture ? UI_TEXT_LINE * scale : 8.0f * scale;
}

/* ---- block icons ---- */

/* UVs of an atlas tile, inset half a texel so neighbours never bleed in. */
static void ui_tile_uv(int tile, int atlas_size, float uv[8])
{
    float tiles = (float)RENDER_ATLAS_TILES_PER_ROW;
    float inset = atlas_size > 0 ? 0.5f / (float)atlas_size : 0.0f;
    float u0 = (float)(tile % RENDER_ATLAS_TILES_PER_ROW) / tiles + inset;
    float v0 = (float)(tile / RENDER_ATLAS_TILES_PER_ROW) / tiles + inset;
    float u1 = u0 + 1.0f / tiles - 2.0f * inset, v1 = v0 + 1.0f / tiles - 2.0f * inset;
    const float corners[8] = { u0, v0, u1, v0, u1, v1, u0, v1 };
    memcpy(uv, corners, sizeof corners);
}

static void ui_face_color(const BlockDef *def, BlockFace face, float shade, uint8_t out[4])
{
    uint8_t tint[3] = { 255, 255, 255 };
    if (block_face_tinted(def, face))
        mesher_tint_color(def->tint, 8, 8, MESHER_SEASON_SUMMER, tint);
    for (int i = 0; i < 3; i++)
        out[i] = (uint8_t)lroundf((float)tint[i] * shade);
    out[3] = 255;
}

void renderer_ui_block_icon(Renderer *renderer, int block, float x, float y, float size)
{
    RenderUi *ui = &renderer->ui;
    const BlockRegistry *b = ui->blocks;
    if (!b || block <= 0 || block >= b->count || !b->defs[block].defined)
        return;
    const BlockDef *def = &b->defs[block];
    int atlas = renderer->atlas.size;
    float uv[8];
    uint8_t c[4];
    if (def->shape == BLOCK_SHAPE_CROSS || def->shape == BLOCK_SHAPE_TORCH || def->shape == BLOCK_SHAPE_NONE) {
        ui_tile_uv(def->textures[BLOCK_FACE_POS_Z], atlas, uv);
        ui_face_color(def, BLOCK_FACE_POS_Z, 1.0f, c);
        const float xy[8] = { x, y, x + size, y, x + size, y + size, x, y + size };
        ui_quad(ui, xy, uv, c, UI_KIND_ATLAS);
        return;
    }
    /* Isometric cube: the top diamond, the +Z face on the left and the +X face on the right. Slabs keep their
     * thinness: the side faces are only as tall as the block. */
    float h = def->shape == BLOCK_SHAPE_LAYER ? 0.125f : def->shape == BLOCK_SHAPE_FLUID ? 0.875f : 1.0f;
    float cx = x + size * 0.5f, q = size * 0.25f;
    float side = size * 0.5f * h;                 /* height of a side face */
    float ty = y + size * 0.5f - side;            /* the top diamond sits on the side faces */
    const float top[8] = { cx, ty, x + size, ty + q, cx, ty + 2 * q, x, ty + q };
    float top_uv[8];
    ui_tile_uv(def->textures[BLOCK_FACE_POS_Y], atlas, top_uv);
    ui_face_color(def, BLOCK_FACE_POS_Y, 1.0f, c);
    ui_quad(ui, top, top_uv, c, UI_KIND_ATLAS);

    float v_cut = 1.0f - h; /* a slab's side shows the bottom part of the tile */
    float left_uv[8], right_uv[8];
    ui_tile_uv(def->textures[BLOCK_FACE_POS_Z], atlas, left_uv);
    ui_tile_uv(def->textures[BLOCK_FACE_POS_X], atlas, right_uv);
    for (int i = 0; i < 2; i++) { /* upper corners of the side tiles move down for slabs */
        float *t = i == 0 ? left_uv : right_uv;
        float span = t[5] - t[1];
        t[1] += span * v_cut;
        t[3] += span * v_cut;
    }
    float sy = ty + q; /* upper outer corner of the side faces */
    const float left[8] = { x, sy, cx, sy + q, cx, sy + q + side, x, sy + side };
    ui_face_color(def, BLOCK_FACE_POS_Z, 0.80f, c);
    ui_quad(ui, left, left_uv, c, UI_KIND_ATLAS);
    const float right[8] = { cx, sy + q, x + size, sy, x + size, sy + side, cx, sy + q + side };
    ui_face_color(def, BLOCK_FACE_POS_X, 0.62f, c);
    ui_quad(ui, right, right_uv, c, UI_KIND_ATLAS);
}

/* ---- the flush ---- */

void render_ui_flush(RenderUi *ui, RenderQuadIndices *indices, GLuint atlas_texture, int width, int height)
{
    if (ui->count == 0)
        return;
    int quads = ui->count / 4;
    render_quad_indices_ensure(indices, quads);
    glBindVertexArray(ui->vao);
    glBindBuffer(GL_ARRAY_BUFFER, ui->vbo);
    int bytes = ui->count * (int)sizeof(UiVertex);
    if (bytes > ui->vbo_bytes)
        ui->vbo_bytes = bytes;
    glBufferData(GL_ARRAY_BUFFER, ui->vbo_bytes, NULL, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, ui->vertices);
    if (!ui->vao_ready) {
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(UiVertex), (const void *)offsetof(UiVertex, x));
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(UiVertex), (const void *)offsetof(UiVertex, u));
        glEnableVertexAttribArray(2);
        glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(UiVertex), (const void *)offsetof(UiVertex, color));
        glEnableVertexAttribArray(3);
        glVertexAttribPointer(3, 1, GL_FLOAT, GL_FALSE, sizeof(UiVertex), (const void *)offsetof(UiVertex, kind));
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices->buffer);
        ui->vao_ready = true;
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glUseProgram(ui->program);
    mat4 pixels;
    glm_ortho(0.0f, (float)width, (float)height, 0.0f, -1.0f, 1.0f, pixels);
    glUniformMatrix4fv(ui->u_mvp, 1, GL_FALSE, (const float *)pixels);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, ui->font_texture);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, atlas_texture);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDrawElementsBaseVertex(GL_TRIANGLES, quads * 6, GL_UNSIGNED_INT, NULL, 0);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
    glUseProgram(0);
    ui->count = 0;
}
