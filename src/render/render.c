/* render.c — create/destroy and the frame: uploads, culling, the three terrain passes, overlay.
 *
 * Design: camera-relative rendering. The view matrix is rotation only; each chunk gets an offset = chunk
 * origin - camera position, computed in double on the CPU, so vertex math stays in small floats at any
 * distance from the origin. The offsets and fog bands go to a per-frame slot table (a texture buffer)
 * that the vertices index with their chunk's slot, so chunks need no per-draw uniforms. A frame: upload
 * queued meshes under the budget, advance fade-in hazes, clear to the sky colour, collect the chunks inside
 * the fog range and the frustum (sorted near to far) with the slices of each that occlusion culling keeps
 * (visibility.h), then
 *   1. opaque: back faces culled, only the side subsets the camera can see (camera-side mask), near to far
 *      so early depth rejects hidden fragments, chunks from RENDER_LOD_FROM on at half resolution
 *      (ChunkMesh.lod_vertices; a chunk whose mesh has only that copy, ChunkMesh.far_only, at any distance:
 *      render_chunk_draws_far, never nothing while its full resolution is being built), a chunk crossing that distance dissolving from one to the other over
 *      RENDER_LOD_DISSOLVE_SECONDS (RenderChunk.lod_share: both drawn, by FADE builds that keep complementary
 *      pixels of a 4x4 dither; render_chunk_round); then the far terrain, without its patches behind the
 *      occluders' horizon nor its squares under drawn chunks;
 *   then the leaves of chunks from RENDER_FAR_LEAVES_FROM blocks on, with back faces culled (a leaf cube's
 *      faces wind outward, so a far canopy's far side is not drawn: half the leaf fragments) and cut out at
 *      a lower alpha to keep the canopy as full (terrain_leaves.frag); from RENDER_LOD_FROM on, their
 *      leaves at half resolution (render_alpha_parts chooses each chunk's parts);
 *   2. alpha-tested: two-sided, cut-out at alpha 0.5 (near chunks' leaves, and the plants of chunks nearer
 *      than RENDER_LOD_FROM);
 *   then the sky dome, depth-tested at the far plane, so it shades only the pixels no terrain covers;
 *   3. transparent: blended, depth writes off, far to near (far chunks leave out ice, which their opaque
 *      half-resolution copy holds);
 * and the overlay. Chunk geometry lives in a few big arenas (chunk_arena.c): a pass gathers the merged
 * subset runs of every visible chunk as (count, base vertex) pairs and draws each arena's with one
 * glMultiDrawElementsBaseVertex (the transparent pass keeps its far-to-near order: a new call only where
 * the arena changes); programs, culling and blending change once per pass. Each pass's shader comes in two
 * builds (RenderPass): chunks wholly nearer than their fog's start, most of a view's pixels, take the one
 * without fog (a clamp and a mix a pixel: ~7% of seed 42's spawn frame on llvmpipe), the rest the other; the
 * opaque, far-leaves and cut-out passes have two builds more, for dissolving chunks. Builds other than the
 * clear one are linked the first time a pass draws with them (render_terrain_shader.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render_internal.h"
#include "strata/fileio.h"
#include "strata/log.h"
#include "strata/visibility.h"

typedef struct LoaderContext {
    RenderGetProc get_proc;
} LoaderContext;

/* glad wants a function-pointer return; SDL_GL_GetProcAddress returns void*. Convert without a cast
 * between incompatible function types. */
static GLADapiproc renderer_load_proc(void *user, const char *name)
{
    const LoaderContext *ctx = user;
    void *address = ctx->get_proc(name);
    GLADapiproc proc;
    memcpy(&proc, &address, sizeof proc);
    return proc;
}

/* Chunks the view square holds: what the chunk table will, once the world has loaded. */
static int renderer_view_square(int view_distance_chunks)
{
    int side = 2 * (view_distance_chunks > 0 ? view_distance_chunks : 0) + 1;
    return side * side;
}

StResult renderer_create(const RendererConfig *config, RenderGetProc get_proc, Renderer **out)
{
    *out = NULL;
    if (!config || !get_proc || !config->asset_dir || !config->shader_dir)
        return st_fail(ST_ERR_ARG, "renderer_create: config, asset_dir, shader_dir and get_proc are required");
    LoaderContext loader = { get_proc };
    int version = gladLoadGLUserPtr(renderer_load_proc, &loader);
    if (version == 0)
        return st_fail(ST_ERR_GL, "could not load OpenGL 3.3 core functions");
    int major = GLAD_VERSION_MAJOR(version), minor = GLAD_VERSION_MINOR(version);
    if (major < 3 || (major == 3 && minor < 3))
        return st_fail(ST_ERR_GL, "OpenGL 3.3 core is required; the context is %d.%d (%s)", major, minor,
                       (const char *)glGetString(GL_RENDERER));

    Renderer *r = calloc(1, sizeof *r);
    if (!r)
        return st_fail(ST_ERR_NOMEM, "renderer_create: out of memory");
    r->width = config->width;
    r->height = config->height;
    r->view_distance_chunks = config->view_distance_chunks;
    r->far_leaves_from = RENDER_FAR_LEAVES_FROM;
    const char *far_leaves = getenv("STRATA_FAR_LEAVES_FROM");   /* benchmarks and comparisons; 0 = never */
    if (far_leaves && *far_leaves)
        r->far_leaves_from = (float)atof(far_leaves);
    r->lod_from = RENDER_LOD_FROM;
    const char *lod = getenv("STRATA_LOD_FROM");   /* comparisons: 0 = never */
    if (lod && *lod)
        r->lod_from = (float)atof(lod);
    r->lod_dissolve = RENDER_LOD_DISSOLVE_SECONDS;
    const char *dissolve = getenv("STRATA_LOD_DISSOLVE");   /* comparisons: seconds, 0 = switch at once */
    if (dissolve && *dissolve)
        r->lod_dissolve = (float)atof(dissolve);

    /* the terrain shaders' CLEAR builds; the others are linked when first drawn (TerrainShader), the FADE ones
     * with terrain_fade.glsl's dissolve */
    const char *dir = config->shader_dir, *opaque = "#define OPAQUE\n";
    char fade_path[1024], *fade = NULL;
    size_t fade_size = 0;
    snprintf(fade_path, sizeof fade_path, "%s/terrain_fade.glsl", dir);
    StResult rc = fileio_read_all(fade_path, &fade, &fade_size);
    if (rc != ST_OK) {
        char reason[512];
        snprintf(reason, sizeof reason, "%s", st_error_message());
        renderer_destroy(r);
        return st_fail(rc, "shader %s: cannot read it: %s", fade_path, reason);
    }
    r->terrain_fade = fade;
    r->shader_dir = strdup(dir);
    r->opaque = (TerrainShader){ .frag_file = "terrain.frag", .defines = opaque, .builds = RENDER_BUILDS };
    r->terrain = (TerrainShader){ .frag_file = "terrain.frag", .builds = RENDER_PLAIN_BUILDS };
    r->cutout = (TerrainShader){ .frag_file = "terrain_cutout.frag", .builds = RENDER_BUILDS };
    r->leaves = (TerrainShader){ .frag_file = "terrain_leaves.frag", .builds = RENDER_BUILDS };
    if (!r->shader_dir)
        rc = st_fail(ST_ERR_NOMEM, "renderer_create: out of memory");
    else if ((rc = renderer_link_terrain(r, &r->opaque, RENDER_CLEAR)) == ST_OK &&
             (rc = renderer_link_terrain(r, &r->terrain, RENDER_CLEAR)) == ST_OK &&
             (rc = renderer_link_terrain(r, &r->cutout, RENDER_CLEAR)) == ST_OK)
        rc = renderer_link_terrain(r, &r->leaves, RENDER_CLEAR);
    if (rc != ST_OK ||
        (rc = chunk_buffers_init(&r->chunks, renderer_view_square(config->view_distance_chunks))) != ST_OK ||
        (rc = render_overlay_create(&r->overlay, config->shader_dir, &r->chunks.quad_indices)) != ST_OK ||
        (rc = render_sky_create(&r->sky, config->shader_dir)) != ST_OK ||
        (rc = render_ui_create(&r->ui, config->shader_dir, config->asset_dir, config->blocks)) != ST_OK ||
        (rc = render_edit_overlay_create(&r->edit_overlay, &r->chunks.quad_indices)) != ST_OK ||
        (rc = render_atlas_load(config->asset_dir, &r->atlas)) != ST_OK ||
        (rc = render_far_create(&r->far, config->shader_dir)) != ST_OK) {
        renderer_destroy(r);
        return rc;
    }
    glGenBuffers(1, &r->slot_buffer);
    glGenTextures(1, &r->slot_texture);
    glBindBuffer(GL_TEXTURE_BUFFER, r->slot_buffer);
    glBufferData(GL_TEXTURE_BUFFER, 4 * sizeof(float) * RENDER_SLOT_TEXELS, NULL, GL_STREAM_DRAW);
    glBindTexture(GL_TEXTURE_BUFFER, r->slot_texture);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, r->slot_buffer);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glFrontFace(GL_CCW);
    glCullFace(GL_BACK);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D_ARRAY, r->atlas.tiles);
    GLenum error = glGetError();
    if (error != GL_NO_ERROR)
        log_warn(RENDER_TAG, "GL error 0x%04x during set-up", error);
    log_info(RENDER_TAG, "OpenGL %s on %s", (const char *)glGetString(GL_VERSION),
             (const char *)glGetString(GL_RENDERER));
    *out = r;
    return ST_OK;
}

void renderer_destroy(Renderer *renderer)
{
    if (!renderer)
        return;
    for (int i = 0; i < RENDER_FRAMES_IN_FLIGHT; i++)
        if (renderer->frame_fences[i])
            glDeleteSync(renderer->frame_fences[i]);
    chunk_buffers_free(&renderer->chunks);
    render_overlay_destroy(&renderer->overlay);
    render_ui_destroy(&renderer->ui);
    render_sky_destroy(&renderer->sky);
    render_edit_overlay_destroy(&renderer->edit_overlay);
    render_far_destroy(&renderer->far);
    render_atlas_free(&renderer->atlas);
    for (int build = 0; build < RENDER_BUILDS; build++) {
        glDeleteProgram(renderer->opaque.program[build].program); /* 0 is ignored */
        glDeleteProgram(renderer->cutout.program[build].program);
        glDeleteProgram(renderer->leaves.program[build].program);
        glDeleteProgram(renderer->terrain.program[build].program);
    }
    free(renderer->shader_dir);
    free(renderer->terrain_fade);
    if (renderer->slot_texture)
        glDeleteTextures(1, &renderer->slot_texture);
    if (renderer->slot_buffer)
        glDeleteBuffers(1, &renderer->slot_buffer);
    free(renderer->slot_data);
    free(renderer->batch.counts);
    free(renderer->batch.bases);
    free(renderer->batch.offsets);
    free(renderer->visible);
    visibility_walk_destroy(renderer->walk);
    free(renderer);
}

void renderer_resize(Renderer *renderer, int width, int height)
{
    renderer->width = width;
    renderer->height = height;
}

void renderer_set_view_distance(Renderer *renderer, int view_distance_chunks)
{
    if (view_distance_chunks >= 1)
        renderer->view_distance_chunks = view_distance_chunks;
}

void renderer_set_chunk_mesh(Renderer *renderer, const TerrainChunk *chunk, ChunkMesh *mesh)
{
    if (!mesh)
        return;
    chunk_buffers_queue_mesh(&renderer->chunks, chunk->coord_x, chunk->coord_z, mesh);
}

void renderer_release_chunk(Renderer *renderer, const TerrainChunk *chunk)
{
    chunk_buffers_release(&renderer->chunks, chunk->coord_x, chunk->coord_z);
}

void renderer_mark_edited(Renderer *renderer, int coord_x, int coord_z)
{
    RenderChunk *c = chunk_buffers_find(&renderer->chunks, coord_x, coord_z);
    if (c)
        c->urgent_draws = RENDER_URGENT_DRAWS;
}

void renderer_end_fades(Renderer *renderer)
{
    ChunkBufferTable *t = &renderer->chunks;
    float fog_start, fog_end;
    render_fog_range(renderer->view_distance_chunks, &fog_start, &fog_end);
    for (int i = 0; i < t->count; i++) {
        t->chunks[i].haze_end = fog_end;
        t->chunks[i].lod_share = -1.0f;   /* nor dissolves: each takes its resolution at once */
    }
}

void renderer_flush_uploads(Renderer *renderer, const RenderCamera *camera)
{
    chunk_buffers_upload(&renderer->chunks, camera->position, -1.0);
    renderer_end_fades(renderer); /* the next frame shows everything */
}

float renderer_lod_from(const Renderer *renderer)
{
    return renderer->lod_from;
}

bool renderer_chunk_uploaded(const Renderer *renderer, int coord_x, int coord_z)
{
    const RenderChunk *c = chunk_buffers_find((ChunkBufferTable *)&renderer->chunks, coord_x, coord_z);
    return !c || !c->pending;
}

bool renderer_chunk_drawable(const Renderer *renderer, int coord_x, int coord_z)
{
    const RenderChunk *c = chunk_buffers_find((ChunkBufferTable *)&renderer->chunks, coord_x, coord_z);
    return c && (c->has_geometry || !c->pending);
}

void renderer_get_stats(const Renderer *renderer, RenderStats *stats)
{
    *stats = renderer->stats;
    stats->uploads_pending = renderer->chunks.pending_count;
    float fog_start, fog_end;
    render_fog_range(renderer->view_distance_chunks, &fog_start, &fog_end);
    int resident = 0, fading = 0;
    for (int i = 0; i < renderer->chunks.count; i++) {
        const RenderChunk *c = &renderer->chunks.chunks[i];
        resident += c->has_geometry;
        fading += c->has_geometry && c->haze_end < fog_end && renderer->far.far_distance <= 0; /* far: no fade */
    }
    stats->chunks_resident = resident;
    stats->chunks_fading = fading;
    stats->arenas = renderer->chunks.arenas.live;
}

/* ---- the frame ---- */

/* The fog: at the voxel view distance, or moved out to the far terrain's distance when it is on. */
static void renderer_fog(const Renderer *r, float *fog_start, float *fog_end)
{
    render_fog_range(r->view_distance_chunks, fog_start, fog_end);
    if (r->far.far_distance > *fog_end) {
        *fog_end = r->far.far_distance;
        *fog_start = r->far.far_distance * 0.45f;
    }
}

void renderer_set_far_patches(Renderer *renderer, const FarPatch *const *patches, int count, float far_distance)
{
    renderer->far.patches = patches;
    renderer->far.patch_count = patches ? count : 0;
    renderer->far.far_distance = far_distance > 0 ? far_distance : 0;
}

bool renderer_far_keep(Renderer *renderer, uint64_t key)
{
    return render_far_keep(&renderer->far, key);
}

void renderer_far_forget(Renderer *renderer, uint64_t key)
{
    render_far_forget(&renderer->far, key);
}

static void renderer_build_matrices(const Renderer *r, const RenderCamera *camera, mat4 view_proj)
{
    float aspect = r->height > 0 ? (float)r->width / (float)r->height : 1.0f;
    float fov = camera->fov_y_deg > 1.0f && camera->fov_y_deg < 179.0f ? camera->fov_y_deg : 70.0f;
    float fog_start, fog_end;
    renderer_fog(r, &fog_start, &fog_end);
    /* Far plane past the farthest visible corner of the farthest chunk, including straight up/down. */
    float far_plane = sqrtf(2.0f * (fog_end + 16.0f) * (fog_end + 16.0f) + 256.0f * 256.0f);
    mat4 proj, view;
    glm_perspective(glm_rad(fov), aspect, 0.05f, far_plane, proj);
    /* Camera looks toward -Z at yaw 0; yaw 90 toward +X; pitch up positive. view = Rx(-pitch) * Ry(yaw). */
    glm_mat4_identity(view);
    glm_rotate(view, glm_rad(-camera->pitch_deg), (vec3){ 1.0f, 0.0f, 0.0f });
    glm_rotate(view, glm_rad(camera->yaw_deg), (vec3){ 0.0f, 1.0f, 0.0f });
    glm_mat4_mul(proj, view, view_proj);
}

static int renderer_compare_visible(const void *a, const void *b)
{
    float da = ((const VisibleChunk *)a)->distance, db = ((const VisibleChunk *)b)->distance;
    return (da > db) - (da < db);
}

/* The occlusion walk's view of the chunk table: a chunk's slice graphs and occluders once it is uploaded. */
static const VisibilityChunk *renderer_slice_graphs(void *user, int coord_x, int coord_z)
{
    const RenderChunk *c = chunk_buffers_find(user, coord_x, coord_z);
    return c && c->graph_known ? &c->visibility : NULL;
}

/* Occlusion culling (visibility.h): the slices reachable from the camera's and not behind the occluders,
 * within the fog's chunks. A moving camera's horizon that hides little (flying over the land) is skipped
 * for RENDER_HORIZON_REST frames at a time: rebuilt every frame it cost a flight 5 ms of the main thread a
 * frame and hid nothing. */
static void renderer_walk_slices(Renderer *r, const double camera[3], mat4 view_proj, float fog_end)
{
    if (!r->walk && !(r->walk = visibility_walk_create()))
        return;
    VisibilityView view = { .radius_chunks = (int)ceilf(fog_end / CHUNK_SIZE_X) + 1, .occlusion = true,
                            .horizon_rest = RENDER_HORIZON_REST };
    if (view.radius_chunks > r->view_distance_chunks + 2)
        view.radius_chunks = r->view_distance_chunks + 2; /* the chunk table holds no farther chunks */
    memcpy(view.camera, camera, sizeof view.camera);
    view.occluders_epoch = r->chunks.occluders_epoch;
    visibility_planes_from_matrix((const float *)view_proj, view.planes);
    visibility_walk_run(r->walk, &view, renderer_slice_graphs, &r->chunks);
    r->walk_view = view;
}

/* RenderFarCull.hidden: behind the occluders of this frame's horizon. */
static bool renderer_far_hidden(void *user, const double lo[3], const double hi[3])
{
    const Renderer *r = user;
    return r->walk && visibility_walk_hides(r->walk, &r->walk_view, lo, hi);
}

/* Chunks with geometry inside the fog range and the frustum, sorted near to far. */
static int renderer_collect_visible(Renderer *r, const double camera[3], mat4 view_proj, float fog_start,
                                    float fog_end)
{
    ChunkBufferTable *t = &r->chunks;
    if (t->count > r->visible_capacity) {
        int capacity = r->visible_capacity ? r->visible_capacity : 256;
        while (capacity < t->count)
            capacity *= 2;
        VisibleChunk *v = realloc(r->visible, (size_t)capacity * sizeof *v);
        if (!v) {
            log_error(RENDER_TAG, "out of memory for the visible list (%d chunks)", t->count);
            return 0;
        }
        r->visible = v;
        r->visible_capacity = capacity;
    }
    RenderFrustum frustum;
    render_frustum_init(&frustum, view_proj);
    renderer_walk_slices(r, camera, view_proj, fog_end);
    int n = 0;
    for (int i = 0; i < t->count; i++) {
        const RenderChunk *c = &t->chunks[i];
        if (!c->has_geometry)
            continue;
        float nearest = chunk_buffers_nearest_distance(c->coord_x, c->coord_z, camera);
        if (nearest >= fog_end)
            continue; /* wholly in the fog */
        double ox = (double)c->coord_x * CHUNK_SIZE_X - camera[0];
        double oz = (double)c->coord_z * CHUNK_SIZE_Z - camera[2];
        VisibleChunk *v = &r->visible[n];
        v->offset[0] = (float)ox;
        v->offset[1] = (float)-camera[1];
        v->offset[2] = (float)oz;
        float box_min[3] = { v->offset[0], (float)((double)c->min_y - camera[1]), v->offset[2] };
        float box_max[3] = { v->offset[0] + CHUNK_SIZE_X, (float)((double)c->max_y + 1.0 - camera[1]),
                             v->offset[2] + CHUNK_SIZE_Z };
        if (!render_frustum_test_box(&frustum, box_min, box_max))
            continue;
        v->slices = r->walk ? visibility_walk_slices(r->walk, c->coord_x, c->coord_z) : 0xFFFF;
        if (!v->slices)
            continue; /* hidden behind opaque cubes */
        double cx = ox + CHUNK_SIZE_X * 0.5, cz = oz + CHUNK_SIZE_Z * 0.5;
        v->index = i;
        v->distance = (float)sqrt(cx * cx + cz * cz);
        v->lod_share = c->lod_share;
        for (int side = 0; side < 2; side++) {
            int one_sided, two_sided;
            render_alpha_parts(v->distance, r->far_leaves_from, side == 1, &one_sided, &two_sided);
            if (side == 1 && c->far_only) {   /* its leaves are the half-resolution ones alone, at any distance */
                one_sided = MESH_ALPHA_LOD_LEAVES;
                two_sided = -1;
            }
            v->alpha_one_sided[side] = (int8_t)one_sided;
            v->alpha_two_sided[side] = (int8_t)two_sided;
        }
        /* with far terrain under them, new chunks need no fade-in */
        float haze = r->far.far_distance > 0 ? fog_end : c->haze_end;
        render_chunk_fog_range(fog_start, fog_end, haze, &v->fog_start, &v->fog_end);
        double far_x = fmax(fabs(ox), fabs(ox + CHUNK_SIZE_X)), far_z = fmax(fabs(oz), fabs(oz + CHUNK_SIZE_Z));
        v->fogged = sqrt(far_x * far_x + far_z * far_z) >= v->fog_start;
        v->drawn = false;
        n++;
    }
    if (n > 1)
        qsort(r->visible, (size_t)n, sizeof *r->visible, renderer_compare_visible);
    return n;
}

/* FarCoveredFn: every chunk over the square has had a mesh uploaded (is drawn where it has geometry). */
static bool renderer_chunks_cover(void *user, double x0, double z0, double x1, double z1)
{
    ChunkBufferTable *t = &((Renderer *)user)->chunks;
    int cx0 = (int)floor(x0 / CHUNK_SIZE_X), cx1 = (int)ceil(x1 / CHUNK_SIZE_X) - 1;
    int cz0 = (int)floor(z0 / CHUNK_SIZE_Z), cz1 = (int)ceil(z1 / CHUNK_SIZE_Z) - 1;
    for (int cz = cz0; cz <= cz1; cz++)
        for (int cx = cx0; cx <= cx1; cx++) {
            const RenderChunk *c = chunk_buffers_find(t, cx, cz);
            if (!c || !c->graph_known)
                return false;
        }
    return true;
}

/* Opaque subsets the camera can see: a side's faces only when the camera is on that side of the chunk's
 * slab (Survivalcraft's subset mask); subset 4 (tops, bottoms, other shapes) always. */
static unsigned renderer_opaque_mask(const RenderChunk *c, const double camera[3])
{
    double min_x = (double)c->coord_x * CHUNK_SIZE_X, min_z = (double)c->coord_z * CHUNK_SIZE_Z;
    unsigned mask = 1u << MESH_SUBSET_OPAQUE_OTHER;
    if (camera[2] > min_z)
        mask |= 1u << MESH_SUBSET_OPAQUE_POS_Z;
    if (camera[0] > min_x)
        mask |= 1u << MESH_SUBSET_OPAQUE_POS_X;
    if (camera[2] < min_z + CHUNK_SIZE_Z)
        mask |= 1u << MESH_SUBSET_OPAQUE_NEG_Z;
    if (camera[0] < min_x + CHUNK_SIZE_X)
        mask |= 1u << MESH_SUBSET_OPAQUE_NEG_X;
    return mask;
}

/* The chunk passes that draw both resolutions of dissolving chunks. */
typedef enum RenderChunkPass { RENDER_PASS_OPAQUE, RENDER_PASS_FAR_LEAVES, RENDER_PASS_CUTOUT } RenderChunkPass;

/* One of them over the visible chunks, in RENDER_ROUNDS rounds (render_chunk_round), each arena's chunks near
 * to far in a call or two: the opaque subsets the camera can see, or the alpha-tested part of each chunk's
 * side for the pass (VisibleChunk.alpha_one_sided, alpha_two_sided). Marks the chunks it drew; returns
 * triangles. */
static long renderer_draw_chunks(Renderer *r, RenderPass *pass, int visible, const double camera[3],
                                 RenderChunkPass kind)
{
    const ChunkBufferTable *t = &r->chunks;
    long triangles = 0;
    for (int round = 0; round < RENDER_ROUNDS; round++)
        for (int a = 0; a < t->arenas.count; a++) {
            for (int i = 0; i < visible; i++) {
                VisibleChunk *v = &r->visible[i];
                const RenderChunk *c = &t->chunks[v->index];
                int side, build;
                if (c->arena != a || !render_chunk_round(v, round, &side, &build))
                    continue;
                long n;
                if (kind == RENDER_PASS_OPAQUE) {
                    renderer_pass_use(r, pass, build);
                    n = renderer_batch_subsets(r, c, renderer_opaque_mask(c, camera), v->slices, side);
                } else {
                    int part = kind == RENDER_PASS_CUTOUT ? v->alpha_two_sided[side] : v->alpha_one_sided[side];
                    if (c->count[MESH_SUBSET_ALPHA_TESTED] == 0 || part < 0)
                        continue;
                    renderer_pass_use(r, pass, build);
                    n = renderer_batch_alpha_part(r, c, v->slices, (MeshAlphaPart)part);
                }
                triangles += n;
                v->drawn = v->drawn || n > 0;
            }
            renderer_batch_flush(r);
        }
    return triangles;
}

/* The slot table for this frame: each visible chunk's offset and fog band at its slot, uploaded to fresh
 * storage (the frame in flight keeps reading the old one) and bound to RENDER_SLOT_UNIT. */
static void renderer_upload_slots(Renderer *r, int visible)
{
    int slots = r->chunks.slot_high > 0 ? r->chunks.slot_high : 1;
    if (slots > r->slot_capacity) {
        int capacity = r->slot_capacity ? r->slot_capacity : 1024;
        while (capacity < slots)
            capacity *= 2;
        float *data = realloc(r->slot_data, (size_t)capacity * RENDER_SLOT_TEXELS * 4 * sizeof *data);
        if (!data) {
            log_error(RENDER_TAG, "out of memory for the slot table (%d slots)", capacity);
            return;
        }
        memset(data + (size_t)r->slot_capacity * RENDER_SLOT_TEXELS * 4, 0,
               (size_t)(capacity - r->slot_capacity) * RENDER_SLOT_TEXELS * 4 * sizeof *data);
        r->slot_data = data;
        r->slot_capacity = capacity;
    }
    for (int i = 0; i < visible; i++) {
        const VisibleChunk *v = &r->visible[i];
        float *d = r->slot_data + (size_t)r->chunks.chunks[v->index].slot * RENDER_SLOT_TEXELS * 4;
        d[0] = v->offset[0];
        d[1] = v->offset[1];
        d[2] = v->offset[2];
        d[4] = v->fog_start;
        d[5] = v->fog_end;
        d[6] = v->lod_share;
    }
    glBindBuffer(GL_TEXTURE_BUFFER, r->slot_buffer);
    glBufferData(GL_TEXTURE_BUFFER, (GLsizeiptr)((size_t)slots * RENDER_SLOT_TEXELS * 4 * sizeof(float)),
                 r->slot_data, GL_STREAM_DRAW);
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    glActiveTexture(GL_TEXTURE0 + RENDER_SLOT_UNIT);
    glBindTexture(GL_TEXTURE_BUFFER, r->slot_texture);
    glActiveTexture(GL_TEXTURE0);
}

/* Frame pacing: waits for the frame RENDER_FRAMES_IN_FLIGHT back. */
static void renderer_wait_frame(Renderer *r)
{
    GLsync *fence = &r->frame_fences[r->frame_index];
    if (*fence) {
        glClientWaitSync(*fence, GL_SYNC_FLUSH_COMMANDS_BIT, (GLuint64)1000000000);
        glDeleteSync(*fence);
        *fence = NULL;
    }
    /* that frame is done: ranges it was the last to draw can be reused */
    chunk_arena_reclaim(&r->chunks.arenas, r->chunks.arenas.frames_ended - RENDER_FRAMES_IN_FLIGHT);
}

static void renderer_end_frame(Renderer *r)
{
    r->frame_fences[r->frame_index] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    r->frame_index = (r->frame_index + 1) % RENDER_FRAMES_IN_FLIGHT;
    r->chunks.arenas.frames_ended++;
}

static double renderer_upload_budget(const RenderFrame *frame)
{
    return frame->upload_ms > 0.0f ? (double)frame->upload_ms : (double)RENDER_UPLOAD_MS_DEFAULT;
}

/* Vertices of geometry arenas kept while emptied: those the loading filled, at most
 * RENDER_ARENA_RESERVE_PER_CHUNK a chunk of the view square (a smaller view distance lets the extra ones go). */
static long renderer_arena_reserve(const Renderer *r)
{
    long most = (long)renderer_view_square(r->view_distance_chunks) * RENDER_ARENA_RESERVE_PER_CHUNK;
    long live = chunk_arena_live_capacity(&r->chunks.arenas);
    return live < most ? live : most;
}

void renderer_draw_loading(Renderer *renderer, const RenderCamera *camera, const RenderFrame *frame,
                           const float backdrop[3])
{
    Renderer *r = renderer;
    renderer_wait_frame(r);
    /* the arenas the loading fills are kept while emptied; none is made ahead (chunk_arena.c) */
    chunk_arena_set_reserve(&r->chunks.arenas, renderer_arena_reserve(r));
    chunk_buffers_upload(&r->chunks, camera->position, renderer_upload_budget(frame));
    glViewport(0, 0, r->width, r->height);
    glDepthMask(GL_TRUE);
    glClearColor(backdrop[0], backdrop[1], backdrop[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    render_ui_flush(&r->ui, &r->chunks.quad_indices, r->atlas.texture, r->width, r->height);
    r->stats.chunks_drawn = 0;
    r->stats.triangles_drawn = 0;
    r->stats.draw_calls = 0;
    r->stats.chunk_draws = 0;
    renderer_end_frame(r);
}

/* Once a frame before the draw: hazes of chunks already shown recede first (chunks uploaded this frame start at
 * their distance), this frame's uploads, and each chunk's resolution share dissolving toward its distance's. */
static void renderer_advance_chunks(Renderer *r, const RenderCamera *camera, const RenderFrame *frame, float fog_end)
{
    ChunkBufferTable *t = &r->chunks;
    float dt = frame->frame_seconds > 0.0f ? frame->frame_seconds : 0.0f;
    for (int i = 0; i < t->count; i++) {
        RenderChunk *c = &t->chunks[i];
        if (c->has_geometry && c->haze_end < fog_end)
            c->haze_end = fminf(fog_end, c->haze_end + RENDER_FADE_SPEED * dt);
    }
    chunk_buffers_upload(t, camera->position, renderer_upload_budget(frame));
    for (int i = 0; i < t->count; i++) {
        RenderChunk *c = &t->chunks[i];
        if (c->urgent_draws > 0)
            c->urgent_draws--;
        /* the resolution of its distance, dissolving toward it (a mesh without the copies draws its cells; one
         * with the far copy alone draws it at once, at any distance: it has nothing to dissolve from) */
        double cx = (double)c->coord_x * CHUNK_SIZE_X + CHUNK_SIZE_X * 0.5 - camera->position[0];
        double cz = (double)c->coord_z * CHUNK_SIZE_Z + CHUNK_SIZE_Z * 0.5 - camera->position[2];
        bool half = render_chunk_draws_far(c->has_lod, c->far_only, (float)sqrt(cx * cx + cz * cz), r->lod_from);
        c->lod_share = c->far_only && c->has_lod ? 1.0f : render_lod_share_step(c->lod_share, half, dt, r->lod_dissolve);
    }
}

/* Inside a fluid the fog closes in and takes the fluid's colour; inside a solid block the world is not drawn
 * at all (the fog ends at the camera), so nothing shows through walls. true when the eye is in one (no dome). */
static bool renderer_eye_medium_fog(const RenderFrame *frame, float sky[3], float *fog_start, float *fog_end)
{
    if (frame->eye_medium == RENDER_MEDIUM_AIR) return false;
    static const float water[3] = { 0.05f, 0.20f, 0.42f }, lava[3] = { 0.75f, 0.25f, 0.04f },
                       solid[3] = { 0.02f, 0.02f, 0.02f };
    const float *tint = frame->eye_medium == RENDER_MEDIUM_WATER ? water
                      : frame->eye_medium == RENDER_MEDIUM_LAVA ? lava : solid;
    float dim = frame->eye_medium == RENDER_MEDIUM_WATER ? 0.35f + 0.65f * frame->sky_brightness : 1.0f;
    for (int c = 0; c < 3; c++)
        sky[c] = tint[c] * dim;
    *fog_end = frame->eye_medium == RENDER_MEDIUM_WATER ? RENDER_WATER_FOG_END
             : frame->eye_medium == RENDER_MEDIUM_LAVA ? RENDER_LAVA_FOG_END : 0.0f;
    *fog_start = frame->eye_medium == RENDER_MEDIUM_WATER ? 2.0f : 0.0f;
    return true;
}

void renderer_draw(Renderer *renderer, const RenderCamera *camera, const RenderFrame *frame)
{
    Renderer *r = renderer;
    ChunkBufferTable *t = &r->chunks;
    renderer_wait_frame(r);
    float fog_start, fog_end;
    renderer_fog(r, &fog_start, &fog_end);

    renderer_advance_chunks(r, camera, frame, fog_end);

    float sky[3];
    renderer_sky_color(frame->time_of_day, frame->sky_brightness, sky);
    if (r->biome_fog)
        renderer_biome_fog(r->biome_fog_rgb, r->biome_fog_density, sky, &fog_start, fog_end);
    /* In a fluid or a block the fog closes in (renderer_eye_medium_fog) and no dome is drawn. */
    bool in_medium = renderer_eye_medium_fog(frame, sky, &fog_start, &fog_end);
    bool dome = frame->sky_detail && !in_medium;
    glViewport(0, 0, r->width, r->height);
    glDepthMask(GL_TRUE);
    glClearColor(sky[0], sky[1], sky[2], 1.0f);
    /* The dome covers every pixel the world leaves at the far plane, so under it only the depth is cleared
     * (llvmpipe fills each tile: a colour clear cost ~1 ms of CPU a frame at 1280x720). */
    glClear(dome ? GL_DEPTH_BUFFER_BIT : GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    mat4 view_proj;
    renderer_build_matrices(r, camera, view_proj);
    int visible = renderer_collect_visible(r, camera->position, view_proj, fog_start, fog_end);
    long triangles = 0;
    int drawn = 0;
    r->stats.draw_calls = 0;
    r->stats.chunk_draws = 0;
    r->batch.count = 0;
    r->batch.arena = -1;
    renderer_upload_slots(r, visible);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D_ARRAY, r->atlas.tiles);

    /* 1. opaque, near to far within each arena */
    RenderPass pass = { &r->opaque, -1, (const float *)view_proj, sky };
    glEnable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    triangles += renderer_draw_chunks(r, &pass, visible, camera->position, RENDER_PASS_OPAQUE);

    /* far terrain, under and beyond the voxel chunks (its own fog, the same range) */
    int far_calls = 0;
    /* every square (and skirt) under drawn chunks is left out, to the corners of the chunk table (the view
     * distance and 2 chunks): with the view distance's disc only, the squares under its corners stayed, and
     * their far sea, 6 blocks down, lit the voxel sea over them in stair-stepped squares */
    RenderFarCull far_cull = { (float)((r->view_distance_chunks + 2) * CHUNK_SIZE_X) * 1.4143f,
                               r->view_distance_chunks + 2, renderer_chunks_cover, renderer_far_hidden, r };
    triangles += render_far_draw(&r->far, view_proj, camera->position, sky, fog_start, fog_end,
                                 0.35f + 0.65f * frame->sky_brightness, &far_cull, &far_calls);
    r->stats.draw_calls += far_calls;

    /* far leaves: the leaves of chunks from far_leaves_from on, one-sided (back faces still culled); from
     * lod_from on their half-resolution canopies. Then 2. alpha-tested, two-sided. */
    for (int two_sided = 0; two_sided < 2; two_sided++) {
        pass.shader = two_sided ? &r->cutout : &r->leaves;
        pass.bound = -1;
        if (two_sided)
            glDisable(GL_CULL_FACE);
        else
            glEnable(GL_CULL_FACE);
        triangles += renderer_draw_chunks(r, &pass, visible, camera->position,
                                          two_sided ? RENDER_PASS_CUTOUT : RENDER_PASS_FAR_LEAVES);
    }

    /* the sky dome where no opaque terrain is (it used to be drawn first, under everything, at full cost) */
    if (dome)
        render_sky_draw(&r->sky, view_proj, camera, frame, sky, fog_start, fog_end);

    /* 3. transparent, far to near, blended over what is there, no depth writes */
    pass.shader = &r->terrain;
    pass.bound = -1;
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    for (int i = visible - 1; i >= 0; i--) {
        VisibleChunk *v = &r->visible[i];
        const RenderChunk *c = &t->chunks[v->index];
        if (c->count[MESH_SUBSET_TRANSPARENT] == 0)
            continue;
        /* blended, it takes one resolution or the other, the half from halfway through a dissolve */
        renderer_pass_use(r, &pass, v->fogged ? RENDER_FOGGED : RENDER_CLEAR);
        triangles += renderer_batch_subsets(r, c, 1u << MESH_SUBSET_TRANSPARENT, v->slices, v->lod_share >= 0.5f);
        v->drawn = true;
    }
    renderer_batch_flush(r);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glBindVertexArray(0);

    for (int i = 0; i < visible; i++)
        drawn += r->visible[i].drawn;

    render_edit_overlay_draw(&r->edit_overlay, &r->overlay, view_proj, camera->position, frame, r->width, r->height);
    render_overlay_draw(&r->overlay, view_proj, camera->position, frame, r->width, r->height);
    render_ui_flush(&r->ui, &t->quad_indices, r->atlas.texture, r->width, r->height);
    glUseProgram(0);

    r->stats.chunks_drawn = drawn;
    r->stats.triangles_drawn = triangles;
    renderer_end_frame(r);
}

double renderer_fade_in_seconds(const Renderer *r)
{
    float fog_start, fog_end;
    render_fog_range(r->view_distance_chunks, &fog_start, &fog_end);
    return fog_end / RENDER_FADE_SPEED;
}
