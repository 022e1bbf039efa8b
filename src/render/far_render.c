/* far_render.c — drawing far-terrain patches (src/lod builds them; this file only uploads and draws).
 *
 * Design. Each patch the game hands over is looked up by its key in a small GPU cache (one VAO, VBO and
 * element buffer per patch: a patch is a few kB and a 2 km cut a few hundred patches); a patch not seen
 * for RENDER_FAR_KEEP_FRAMES frames is freed. The lod module already limits how many new patches arrive a
 * frame (StreamingBudgetPerFrame), so uploads here need no budget of their own. Patches are drawn after
 * the opaque voxel pass with back faces culled (src/lod winds the surface and the skirts to face out),
 * with the terrain's fog; each patch's box is tested against the frustum and against the voxel occluders'
 * horizon (visibility_walk_hides: at seed 42's spawn, in a ravine, most of the far terrain is behind its
 * walls), and the squares of a patch wholly under drawn voxel chunks are left out (far_patch_runs: about 6k
 * of a flight's 47k far triangles lay under them). */
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"
#include "strata/log.h"

#define RENDER_FAR_KEEP_FRAMES 120

StResult render_far_create(RenderFar *far, const char *shader_dir)
{
    memset(far, 0, sizeof *far);
    StResult rc = render_shader_load(shader_dir, "far.vert", "far.frag", &far->program);
    if (rc != ST_OK) return rc;
    far->u_view_proj = render_shader_uniform(far->program, "u_view_proj");
    far->u_offset = render_shader_uniform(far->program, "u_offset");
    far->u_fog_color = render_shader_uniform(far->program, "u_fog_color");
    far->u_fog_range = render_shader_uniform(far->program, "u_fog_range");
    far->u_light = render_shader_uniform(far->program, "u_light");
    return ST_OK;
}

static void render_far_free_entry(RenderFarEntry *e)
{
    glDeleteVertexArrays(1, &e->vao);
    glDeleteBuffers(1, &e->vbo);
    glDeleteBuffers(1, &e->ebo);
}

void render_far_destroy(RenderFar *far)
{
    for (int i = 0; i < far->count; i++) render_far_free_entry(&far->entries[i]);
    free(far->entries);
    if (far->program) glDeleteProgram(far->program);
    memset(far, 0, sizeof *far);
}

static RenderFarEntry *render_far_get(RenderFar *far, const FarPatch *p)
{
    for (int i = 0; i < far->count; i++)
        if (far->entries[i].key == p->key) return &far->entries[i];
    if (far->count == far->capacity) {
        int cap = far->capacity ? far->capacity * 2 : 256;
        RenderFarEntry *e = realloc(far->entries, (size_t)cap * sizeof *e);
        if (!e) return NULL;
        far->entries = e;
        far->capacity = cap;
    }
    RenderFarEntry *e = &far->entries[far->count++];
    memset(e, 0, sizeof *e);
    e->key = p->key;
    e->index_count = p->index_count;
    glGenVertexArrays(1, &e->vao);
    glGenBuffers(1, &e->vbo);
    glGenBuffers(1, &e->ebo);
    glBindVertexArray(e->vao);
    glBindBuffer(GL_ARRAY_BUFFER, e->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)p->vertex_count * sizeof(FarVertex)), p->vertices, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(FarVertex), (const void *)offsetof(FarVertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(FarVertex), (const void *)offsetof(FarVertex, color));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, e->ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)p->index_count * sizeof(uint16_t)), p->indices, GL_STATIC_DRAW);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return e;
}

long render_far_draw(RenderFar *far, mat4 view_proj, const double camera[3], const float sky[3], float fog_start,
                     float fog_end, float light, const RenderFarCull *cull, int *draw_calls)
{
    far->frame++;
    long triangles = 0;
    if (far->patch_count > 0) {
        RenderFrustum frustum;
        render_frustum_init(&frustum, view_proj);
        glUseProgram(far->program);
        glUniformMatrix4fv(far->u_view_proj, 1, GL_FALSE, (const float *)view_proj);
        glUniform3fv(far->u_fog_color, 1, sky);
        glUniform2f(far->u_fog_range, fog_start, fog_end);
        glUniform1f(far->u_light, light);
        glEnable(GL_CULL_FACE);   /* lod winds skirts outwards: back faces (a quarter of the surface, half
                                   * the skirts) never reach llvmpipe's bins, which cost memory per triangle */
        for (int i = 0; i < far->patch_count; i++) {
            const FarPatch *p = far->patches[i];
            double size = far_terrain_patch_size(p->level);
            float off[3] = {(float)(p->origin_x - camera[0]), (float)-camera[1], (float)(p->origin_z - camera[2])};
            float bmin[3] = {off[0], p->min_y - (float)camera[1] - 64.0f, off[2]};
            float bmax[3] = {off[0] + (float)size, p->max_y - (float)camera[1], off[2] + (float)size};
            RenderFarEntry *e = render_far_get(far, p);
            if (!e) continue;
            e->last_frame = far->frame;
            if (!render_frustum_test_box(&frustum, bmin, bmax)) continue;
            double lo[3] = {p->origin_x, (double)p->min_y - 64.0, p->origin_z};
            double hi[3] = {p->origin_x + size, (double)p->max_y, p->origin_z + size};
            if (cull->hidden && cull->hidden(cull->user, lo, hi)) continue;   /* behind a hill or a ravine wall */
            int first[FAR_PATCH_MAX_RUNS], count[FAR_PATCH_MAX_RUNS];
            int runs = far_patch_runs(p, camera[0], camera[2], cull->voxel_cover, cull->covered, cull->user, first,
                                      count);
            const void *offsets[FAR_PATCH_MAX_RUNS];
            for (int k = 0; k < runs; k++) {
                offsets[k] = (const void *)((size_t)first[k] * sizeof(uint16_t));
                triangles += count[k] / 3;
            }
            glUniform3fv(far->u_offset, 1, off);
            glBindVertexArray(e->vao);
            glMultiDrawElements(GL_TRIANGLES, count, GL_UNSIGNED_SHORT, offsets, runs);
            (*draw_calls)++;
        }
        glBindVertexArray(0);
    }
    for (int i = 0; i < far->count;) {   /* free patches no longer handed over */
        if (far->frame - far->entries[i].last_frame > RENDER_FAR_KEEP_FRAMES) {
            render_far_free_entry(&far->entries[i]);
            far->entries[i] = far->entries[--far->count];
            continue;
        }
        i++;
    }
    return triangles;
}
