/* far_render.c — drawing far-terrain patches (src/lod builds them; this file only uploads and draws).
 *
 * Design. Each patch the game hands over is looked up by its key in a small GPU cache (one VAO, VBO and
 * element buffer per patch: a patch is a few kB and a 2 km cut a few hundred patches; the vertices go up as
 * FarGpuVertex, their positions in sixteenths of a block, 10 bytes instead of FarVertex's 16); a patch not seen
 * for RENDER_FAR_KEEP_FRAMES frames is freed, but for those the game's FarTerrain has released its own copy of
 * (renderer_far_keep: ~9 MB at view distance 8 with a 2 km cut, kept once instead of twice): they stay until
 * the FarTerrain drops them too (renderer_far_forget). The lod module already limits how many new patches arrive a
 * frame (StreamingBudgetPerFrame), so uploads here need no budget of their own. Patches are drawn after
 * the opaque voxel pass with back faces culled (src/lod winds every face outwards), nearest patch first
 * (llvmpipe's early depth test then rejects farther patches' pixels behind nearer hills), with the terrain's
 * fog; each patch's box is tested against the frustum and against the voxel occluders' horizon
 * (visibility_walk_hides: at seed 42's spawn, in a ravine, most of the far terrain is behind its walls), then
 * each of its squares' boxes likewise (render_far_seen, far_patch_runs_split's `seen`: a patch at the screen's
 * edge or half behind a hill draws only the squares that may show), and the squares of a patch wholly under
 * drawn voxel chunks are left out (far_patch_runs), but for the sea's.
 * The cover map, one texel a chunk around the camera's (uploaded when it changes), tells far.frag's COVER
 * build which pixels lie over a drawn chunk: it leaves them out, so far land never shows over or under the
 * voxel chunks (their sea showed it through the water), but for the sea squares' floors at the bottom of the
 * world, which only a chunk drawn without its floor (the outermost ring's) lets through its water. That build
 * draws only the squares that reach a drawn chunk (far_patch_runs_split, render_far_touches): its discard
 * turns off llvmpipe's early depth test for the whole draw, so every other square draws with the plain build. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_internal.h"
#include "strata/log.h"

#define RENDER_FAR_KEEP_FRAMES 120

static StResult render_far_program(const char *shader_dir, const char *defines, RenderFarProgram *p)
{
    StResult rc = render_shader_load_variant(shader_dir, "far.vert", "far.frag", defines, &p->program);
    if (rc != ST_OK) return rc;
    p->u_view_proj = render_shader_uniform(p->program, "u_view_proj");
    p->u_offset = render_shader_uniform(p->program, "u_offset");
    p->u_fog_color = render_shader_uniform(p->program, "u_fog_color");
    p->u_fog_range = render_shader_uniform(p->program, "u_fog_range");
    p->u_light = render_shader_uniform(p->program, "u_light");
    p->u_cover = render_shader_uniform(p->program, "u_cover");
    p->u_cover_origin = render_shader_uniform(p->program, "u_cover_origin");
    p->u_cover_size = render_shader_uniform(p->program, "u_cover_size");
    return ST_OK;
}

StResult render_far_create(RenderFar *far, const char *shader_dir)
{
    memset(far, 0, sizeof *far);
    StResult rc = render_far_program(shader_dir, "", &far->plain);
    if (rc == ST_OK) rc = render_far_program(shader_dir, "#define COVER 1\n", &far->cover);
    if (rc != ST_OK) return rc;
    glGenTextures(1, &far->cover_texture);
    glBindTexture(GL_TEXTURE_2D, far->cover_texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
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
    free(far->cover_data);
    free(far->order);
    if (far->plain.program) glDeleteProgram(far->plain.program);
    if (far->cover.program) glDeleteProgram(far->cover.program);
    if (far->cover_texture) glDeleteTextures(1, &far->cover_texture);
    memset(far, 0, sizeof *far);
}

static RenderFarEntry *render_far_find(const RenderFar *far, uint64_t key)
{
    for (int i = 0; i < far->count; i++)
        if (far->entries[i].key == key) return &far->entries[i];
    return NULL;
}

static RenderFarEntry *render_far_get(RenderFar *far, const FarPatch *p)
{
    RenderFarEntry *found = render_far_find(far, p->key);
    if (found) return found;
    if (!p->vertices || !p->indices) return NULL;   /* released, and not here: cannot happen (renderer_far_keep) */
    if (far->count == far->capacity) {
        int cap = far->capacity ? far->capacity * 2 : 256;
        RenderFarEntry *e = realloc(far->entries, (size_t)cap * sizeof *e);
        if (!e) return NULL;
        far->entries = e;
        far->capacity = cap;
    }
    FarGpuVertex *gpu = malloc((size_t)(p->vertex_count > 0 ? p->vertex_count : 1) * sizeof *gpu);
    if (!gpu) return NULL;   /* not drawn this frame; tried again the next */
    for (int i = 0; i < p->vertex_count; i++) {
        const FarVertex *v = &p->vertices[i];
        gpu[i].x = render_fixed16(v->x, (float)FAR_GPU_POSITION_STEPS);
        gpu[i].y = render_fixed16(v->y, (float)FAR_GPU_POSITION_STEPS);
        gpu[i].z = render_fixed16(v->z, (float)FAR_GPU_POSITION_STEPS);
        memcpy(gpu[i].color, v->color, 4);
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
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)p->vertex_count * sizeof *gpu), gpu, GL_STATIC_DRAW);
    free(gpu);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_SHORT, GL_FALSE, sizeof(FarGpuVertex), (const void *)offsetof(FarGpuVertex, x));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(FarGpuVertex),
                          (const void *)offsetof(FarGpuVertex, color));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, e->ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)p->index_count * sizeof(uint16_t)), p->indices, GL_STATIC_DRAW);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return e;
}

/* The cover map: one texel a chunk around the camera's, 255 where a voxel chunk is drawn (far.frag leaves
 * the far terrain out there). Returns false when it cannot be made (the far terrain is then drawn whole). */
static bool render_far_cover_map(RenderFar *far, const RenderFarCull *cull, long ccx, long ccz)
{
    int size = 2 * cull->cover_chunks + 1, texels = size * size;
    if (size != far->cover_size) {
        uint8_t *d = realloc(far->cover_data, (size_t)texels * 2);
        if (!d) return false;
        far->cover_data = d;
        far->cover_size = size;
        memset(d + texels, 0xAA, (size_t)texels);   /* no map yet: differs from any */
    }
    uint8_t *now = far->cover_data, *last = far->cover_data + texels;
    for (int j = 0; j < size; j++)
        for (int i = 0; i < size; i++) {
            double x0 = (double)(ccx - cull->cover_chunks + i) * 16.0, z0 = (double)(ccz - cull->cover_chunks + j) * 16.0;
            now[j * size + i] = cull->covered && cull->covered(cull->user, x0, z0, x0 + 16.0, z0 + 16.0) ? 255 : 0;
        }
    if (memcmp(now, last, (size_t)texels) == 0) return true;   /* unchanged (most frames): no upload */
    memcpy(last, now, (size_t)texels);
    glActiveTexture(GL_TEXTURE0 + RENDER_FAR_COVER_UNIT);
    glBindTexture(GL_TEXTURE_2D, far->cover_texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, size, size, 0, GL_RED, GL_UNSIGNED_BYTE, now);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glActiveTexture(GL_TEXTURE0);
    return true;
}

/* The cover map as uploaded (CPU copy), for render_far_touches. */
typedef struct {
    const uint8_t *texels;
    int size;
    double x0, z0;   /* its corner, world blocks */
} RenderFarMap;

/* Whether any of the square x0..x1 by z0..z1 (a block's margin around it: far.frag's float positions) lies over
 * a drawn chunk of the cover map: only such squares need the COVER build. */
static bool render_far_touches(void *user, double x0, double z0, double x1, double z1)
{
    const RenderFarMap *m = user;
    long i0 = (long)floor((x0 - 1.0 - m->x0) / 16.0), i1 = (long)floor((x1 + 1.0 - m->x0) / 16.0);
    long j0 = (long)floor((z0 - 1.0 - m->z0) / 16.0), j1 = (long)floor((z1 + 1.0 - m->z0) / 16.0);
    if (i0 < 0) i0 = 0;
    if (j0 < 0) j0 = 0;
    if (i1 >= m->size) i1 = m->size - 1;
    if (j1 >= m->size) j1 = m->size - 1;
    for (long j = j0; j <= j1; j++)
        for (long i = i0; i <= i1; i++)
            if (m->texels[j * m->size + i]) return true;
    return false;
}

/* What render_far_seen tests a square's box against: this frame's frustum (camera-relative) and horizon. */
typedef struct RenderFarView {
    const RenderFrustum *frustum;
    const double *camera;
    const RenderFarCull *cull;
} RenderFarView;

/* FarSeenFn: whether the box lo..hi (world blocks) is in the frustum and not behind the voxel occluders' horizon
 * (a square of a patch whose box as a whole is). */
static bool render_far_seen(void *user, const double lo[3], const double hi[3])
{
    const RenderFarView *v = user;
    float bmin[3], bmax[3];
    for (int k = 0; k < 3; k++) {
        bmin[k] = (float)(lo[k] - v->camera[k]);
        bmax[k] = (float)(hi[k] - v->camera[k]);
    }
    if (!render_frustum_test_box(v->frustum, bmin, bmax)) return false;
    return !(v->cull->hidden && v->cull->hidden(v->cull->user, lo, hi));
}

/* A patch and its nearest point's horizontal distance (squared) from the camera. */
typedef struct RenderFarNear {
    const FarPatch *patch;
    double d2;
} RenderFarNear;

static int render_far_nearer(const void *a, const void *b)
{
    double da = ((const RenderFarNear *)a)->d2, db = ((const RenderFarNear *)b)->d2;
    return da < db ? -1 : da > db;
}

/* This frame's patches nearest first in far->order (their count; 0 when out of memory: then as handed over):
 * a nearer patch drawn first hides the farther ones' pixels behind it from llvmpipe's early depth test. */
static int render_far_sort(RenderFar *far, const double camera[3])
{
    if (far->patch_count > far->order_capacity) {
        RenderFarNear *o = realloc(far->order, (size_t)far->patch_count * sizeof *o);
        if (!o) return 0;
        far->order = o;
        far->order_capacity = far->patch_count;
    }
    for (int i = 0; i < far->patch_count; i++) {
        const FarPatch *p = far->patches[i];
        double size = far_terrain_patch_size(p->level);
        double dx = fmax(0.0, fmax(p->origin_x - camera[0], camera[0] - (p->origin_x + size)));
        double dz = fmax(0.0, fmax(p->origin_z - camera[2], camera[2] - (p->origin_z + size)));
        far->order[i] = (RenderFarNear){p, dx * dx + dz * dz};
    }
    qsort(far->order, (size_t)far->patch_count, sizeof *far->order, render_far_nearer);
    return far->patch_count;
}

static void render_far_use(const RenderFarProgram *p, mat4 view_proj, const float sky[3], float fog_start,
                           float fog_end, float light, const float cover_origin[2], int cover_size)
{
    glUseProgram(p->program);
    glUniformMatrix4fv(p->u_view_proj, 1, GL_FALSE, (const float *)view_proj);
    glUniform3fv(p->u_fog_color, 1, sky);
    glUniform2f(p->u_fog_range, fog_start, fog_end);
    glUniform1f(p->u_light, light);
    glUniform1i(p->u_cover, RENDER_FAR_COVER_UNIT);
    glUniform2f(p->u_cover_origin, cover_origin[0], cover_origin[1]);
    glUniform1f(p->u_cover_size, (float)cover_size);
}

long render_far_draw(RenderFar *far, mat4 view_proj, const double camera[3], const float sky[3], float fog_start,
                     float fog_end, float light, const RenderFarCull *cull, int *draw_calls)
{
    far->frame++;
    long triangles = 0;
    if (far->patch_count > 0) {
        RenderFrustum frustum;
        render_frustum_init(&frustum, view_proj);
        long ccx = (long)floor(camera[0] / 16.0), ccz = (long)floor(camera[2] / 16.0);
        bool cover = cull->cover_chunks > 0 && render_far_cover_map(far, cull, ccx, ccz);
        glActiveTexture(GL_TEXTURE0 + RENDER_FAR_COVER_UNIT);
        glBindTexture(GL_TEXTURE_2D, far->cover_texture);
        glActiveTexture(GL_TEXTURE0);
        int csize = 2 * cull->cover_chunks + 1;
        /* the map's corner, camera-relative (far.frag works in camera-relative blocks) */
        double cx0 = (double)(ccx - cull->cover_chunks) * 16.0, cz0 = (double)(ccz - cull->cover_chunks) * 16.0;
        float corner[2] = {(float)(cx0 - camera[0]), (float)(cz0 - camera[2])};
        RenderFarMap map = {far->cover_data, csize, cx0, cz0};
        RenderFarView view = {&frustum, camera, cull};
        int bound = -1;   /* 0 plain, 1 cover */
        glEnable(GL_CULL_FACE);   /* lod winds every face outwards: back faces (the sides turned away, half the
                                   * skirts) never reach llvmpipe's bins, which cost memory per triangle */
        bool sorted = render_far_sort(far, camera) == far->patch_count;   /* nearest first: early depth */
        for (int i = 0; i < far->patch_count; i++) {
            const FarPatch *p = sorted ? far->order[i].patch : far->patches[i];
            double size = far_terrain_patch_size(p->level);
            float off[3] = {(float)(p->origin_x - camera[0]), (float)-camera[1], (float)(p->origin_z - camera[2])};
            float bmin[3] = {off[0], p->min_y - (float)camera[1], off[2]};
            float bmax[3] = {off[0] + (float)size, p->max_y - (float)camera[1], off[2] + (float)size};
            RenderFarEntry *e = render_far_get(far, p);
            if (!e) continue;
            e->last_frame = far->frame;
            if (!render_frustum_test_box(&frustum, bmin, bmax)) continue;
            double lo[3] = {p->origin_x, (double)p->min_y, p->origin_z};
            double hi[3] = {p->origin_x + size, (double)p->max_y, p->origin_z + size};
            if (cull->hidden && cull->hidden(cull->user, lo, hi)) continue;   /* behind a hill or a ravine wall */
            int first[FAR_PATCH_MAX_RUNS], count[FAR_PATCH_MAX_RUNS], tfirst[FAR_PATCH_MAX_RUNS],
                tcount[FAR_PATCH_MAX_RUNS], truns = 0;
            int runs = far_patch_runs_split(p, camera[0], camera[2], cull->voxel_cover, cull->covered, cull->user,
                                            cover ? render_far_touches : NULL, &map, render_far_seen, &view,
                                            first, count, tfirst, tcount, &truns);
            if (runs + truns == 0) continue;
            glBindVertexArray(e->vao);
            /* the squares that reach a drawn chunk: the build that leaves out the pixels over it (its discard
             * costs llvmpipe the early depth test, so every other square draws with the plain build) */
            for (int pass = 0; pass < 2; pass++) {
                int n = pass ? truns : runs;
                if (n == 0) continue;
                const int *fi = pass ? tfirst : first, *co = pass ? tcount : count;
                const void *offsets[FAR_PATCH_MAX_RUNS];
                for (int k = 0; k < n; k++) {
                    offsets[k] = (const void *)((size_t)fi[k] * sizeof(uint16_t));
                    triangles += co[k] / 3;
                }
                if (pass != bound) {
                    bound = pass;
                    render_far_use(pass ? &far->cover : &far->plain, view_proj, sky, fog_start, fog_end, light,
                                   corner, csize);
                }
                glUniform3fv(pass ? far->cover.u_offset : far->plain.u_offset, 1, off);
                glMultiDrawElements(GL_TRIANGLES, co, GL_UNSIGNED_SHORT, offsets, n);
                (*draw_calls)++;
            }
        }
        glBindVertexArray(0);
    }
    for (int i = 0; i < far->count;) {   /* free patches no longer handed over (but those kept for the FarTerrain) */
        if (!far->entries[i].kept && far->frame - far->entries[i].last_frame > RENDER_FAR_KEEP_FRAMES) {
            render_far_free_entry(&far->entries[i]);
            far->entries[i] = far->entries[--far->count];
            continue;
        }
        i++;
    }
    return triangles;
}

bool render_far_keep(RenderFar *far, uint64_t key)
{
    RenderFarEntry *e = render_far_find(far, key);
    if (!e) return false;
    e->kept = true;
    return true;
}

void render_far_forget(RenderFar *far, uint64_t key)
{
    RenderFarEntry *e = render_far_find(far, key);
    if (!e) return;
    render_far_free_entry(e);
    *e = far->entries[--far->count];
}
