/* render_sky.c — sky colour by time of day, and the fog ranges that blend terrain into it.
 *
 * Design: the sky is the clear colour and the fog colour at once, so distant terrain melts into it
 * with no seam. The colour follows a small keyframe table over the day (0 = midnight, 0.25 dawn,
 * 0.5 noon, 0.75 dusk) with smoothstep between keys, dimmed by sky_brightness. Fog is linear over the
 * horizontal distance, ending exactly at the voxel view distance so chunks appear at the edge already
 * fully fogged. A chunk that just got geometry keeps its own, nearer fog end (Survivalcraft's haze) that
 * recedes outward; its fog band keeps the global band's width so the haze looks the same as the fog.
 * The dome (sky.frag, when the frame asks for it) is drawn over the clear: its horizon is that same colour,
 * so the fog still meets the sky without a seam, and it adds the zenith gradient, the sun and moon on their
 * daily circle, stars at night, the sunrise/sunset glow and the drifting cloud layer. Its every pixel cost
 * ~40 ns of CPU on llvmpipe (a full-screen sky 33 ms a frame), so the per-frame parts (zenith, glow centre,
 * cloud colour) are uniforms computed here, the stars are a second build of the shader drawn only while they
 * show, and the clouds are a density texture made once (render_sky_cloud_density) instead of hashes a pixel.
 * The clouds are a soft layer, not cells: four octaves of value noise, its edge set at start so a third of the
 * sky is cloud, filtered and mipmapped (sky.frag takes one trilinear sample where a cloud can show), so an
 * edge is a soft ramp and the layer far off an even haze fading out over the last degrees above the horizon;
 * nearest cells of 12 blocks drew hard-edged shards, and aliased into streaks near the horizon. The biome at the player (renderer_set_fog) tints that one colour
 * and widens or narrows the fog band, so clear, horizon, voxel fog and far-terrain fog change together and
 * still meet without a seam. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "render_internal.h"

typedef struct SkyKey {
    float time;
    float rgb[3];
} SkyKey;

static const SkyKey SKY_KEYS[] = {
    { 0.00f, { 0.010f, 0.015f, 0.060f } }, /* midnight: dark blue */
    { 0.19f, { 0.020f, 0.035f, 0.110f } },
    { 0.25f, { 0.850f, 0.520f, 0.360f } }, /* dawn: warm */
    { 0.31f, { 0.560f, 0.720f, 0.950f } },
    { 0.50f, { 0.530f, 0.750f, 1.000f } }, /* noon: light blue */
    { 0.69f, { 0.560f, 0.720f, 0.950f } },
    { 0.75f, { 0.900f, 0.470f, 0.280f } }, /* dusk: warm */
    { 0.81f, { 0.020f, 0.035f, 0.110f } },
    { 1.00f, { 0.010f, 0.015f, 0.060f } },
};

void renderer_sky_color(float time_of_day, float sky_brightness, float rgb[3])
{
    float t = time_of_day - floorf(time_of_day); /* wrap into 0..1 */
    int count = (int)(sizeof SKY_KEYS / sizeof SKY_KEYS[0]);
    int k = 0;
    while (k < count - 2 && t > SKY_KEYS[k + 1].time)
        k++;
    const SkyKey *a = &SKY_KEYS[k], *b = &SKY_KEYS[k + 1];
    float f = (t - a->time) / (b->time - a->time);
    f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
    f = f * f * (3.0f - 2.0f * f);
    float brightness = sky_brightness < 0.0f ? 0.0f : sky_brightness > 1.0f ? 1.0f : sky_brightness;
    float dim = 0.5f + 0.5f * brightness;
    for (int c = 0; c < 3; c++)
        rgb[c] = (a->rgb[c] + (b->rgb[c] - a->rgb[c]) * f) * dim;
}

void render_fog_range(int view_distance_chunks, float *fog_start, float *fog_end)
{
    int chunks = view_distance_chunks < 1 ? 1 : view_distance_chunks;
    *fog_end = (float)(chunks * CHUNK_SIZE_X);
    *fog_start = *fog_end * (2.0f / 3.0f);
}

/* The noon key of the table above: a biome's fog colour is given for noon. */
#define SKY_NOON_KEY 4

void renderer_biome_fog(const float fog_rgb[3], float density, float sky[3], float *fog_start, float fog_end)
{
    const float *noon = SKY_KEYS[SKY_NOON_KEY].rgb;
    for (int c = 0; c < 3; c++) {
        float v = sky[c] * fog_rgb[c] / noon[c];
        sky[c] = v > 1.0f ? 1.0f : v;
    }
    float d = density < 0.0f ? 0.0f : density > 1.0f ? 1.0f : density;
    float band = (fog_end - *fog_start) * d * 3.0f;
    *fog_start = band > fog_end ? 0.0f : fog_end - band;
}

void renderer_set_fog(Renderer *renderer, const float rgb[3], float density)
{
    renderer->biome_fog = true;
    memcpy(renderer->biome_fog_rgb, rgb, sizeof renderer->biome_fog_rgb);
    renderer->biome_fog_density = density;
}

void render_chunk_fog_range(float fog_start, float fog_end, float haze_end, float *chunk_start, float *chunk_end)
{
    if (haze_end >= fog_end) {
        *chunk_start = fog_start;
        *chunk_end = fog_end;
        return;
    }
    float band = fog_end - fog_start;
    *chunk_end = haze_end;
    *chunk_start = haze_end - band < fog_start ? haze_end - band : fog_start;
}

void renderer_sun_direction(float time_of_day, float out[3])
{
    float a = (time_of_day - 0.25f) * 6.2831853f;
    float v[3] = { cosf(a), sinf(a), 0.28f }; /* tilted a little south so it never passes straight overhead */
    float n = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++)
        out[i] = v[i] / n;
}

/* GLSL's fract and a small hash of two non-negative integers' floats (the one sky.frag took per pixel once).
 * Truncating is flooring there, without libm's floorf call. */
static float sky_fract(float x)
{
    return x - (float)(int32_t)x;
}

static float sky_hash2(float x, float y)
{
    float q0 = sky_fract(x * 0.1031f), q1 = sky_fract(y * 0.1031f), q2 = q0;
    float d = q0 * (q1 + 33.33f) + q1 * (q2 + 33.33f) + q2 * (q0 + 33.33f);
    return sky_fract((q0 + d + q1 + d) * (q2 + d));
}

#define SKY_CLOUD_TEXEL 8.0f   /* blocks a cloud texel's side */
#define SKY_CLOUD_OCTAVES 4    /* value noise over 16, 8, 4 and 2 texels (128 down to 16 blocks) */
#define SKY_CLOUD_COVER 0.36f  /* the share of the sky the clouds cover */
#define SKY_CLOUD_GAIN 2.2f    /* how fast density turns from clear to cloud past the edge */

/* Octave o's lattice value at (i, j), wrapped to its lattice over one period (so the texture tiles). */
static float sky_lattice(int o, int i, int j, int cells)
{
    i = ((i % cells) + cells) % cells;
    j = ((j % cells) + cells) % cells;
    return sky_hash2((float)(i + 1031 * o), (float)(j + 517 * o));
}

/* Every octave's lattice over one period, computed once per texture (the hash four times a texel an octave was
 * most of the 40 ms the texture took): octave o's cells (16 >> o texels each) at lattice[o][j * cells + i]. */
typedef struct SkyLattice {
    float *values[SKY_CLOUD_OCTAVES];
} SkyLattice;

static bool sky_lattice_make(SkyLattice *l)
{
    memset(l, 0, sizeof *l);
    int size = 16;
    for (int o = 0; o < SKY_CLOUD_OCTAVES; o++, size /= 2) {
        int cells = RENDER_CLOUD_PERIOD / size;
        l->values[o] = malloc(sizeof(float) * (size_t)cells * cells);
        if (!l->values[o])
            return false;
        for (int j = 0; j < cells; j++)
            for (int i = 0; i < cells; i++)
                l->values[o][(size_t)j * cells + i] = sky_lattice(o, i, j, cells);
    }
    return true;
}

static void sky_lattice_free(SkyLattice *l)
{
    for (int o = 0; o < SKY_CLOUD_OCTAVES; o++)
        free(l->values[o]);
}

/* The density's raw sum at texel (x, z) of the period, 0..1: smooth (smoothstep-interpolated) value noise,
 * four octaves, each half the last's size and 0.6 of its weight (ragged edges, not round blobs), each lattice
 * value hashed where it is used: the reference that sky_cloud_field's table and rows must match. */
static float sky_cloud_raw(int x, int z)
{
    float sum = 0.0f, weight = 0.0f, amplitude = 1.0f;
    int size = 16;
    for (int o = 0; o < SKY_CLOUD_OCTAVES; o++, size /= 2, amplitude *= 0.6f) {
        int cells = RENDER_CLOUD_PERIOD / size, i = x / size, j = z / size;
        float fx = (float)(x % size) / (float)size, fz = (float)(z % size) / (float)size;
        fx = fx * fx * (3.0f - 2.0f * fx);
        fz = fz * fz * (3.0f - 2.0f * fz);
        float a = sky_lattice(o, i, j, cells), b = sky_lattice(o, i + 1, j, cells);
        float c = sky_lattice(o, i, j + 1, cells), d = sky_lattice(o, i + 1, j + 1, cells);
        float near = a + (b - a) * fx, far = c + (d - c) * fx;
        sum += amplitude * (near + (far - near) * fz);
        weight += amplitude;
    }
    return sum / weight;
}

/* Every texel's raw density over the period from the table (render_sky_make_clouds): the numbers of
 * sky_cloud_raw, each texel's sum taken in the same order with the same operations, but an octave at a time
 * over whole rows (each row's two lattice rows and fz once, each column's fx from a table of `size`), with
 * shifts and masks for divisions (sizes and lattices are powers of two). Per texel it cost the main thread
 * ~22 ms at start-up, while the world loads beside it on the same two cores; by rows ~4 ms. */
static void sky_cloud_field(const SkyLattice *l, float *raw)
{
    enum { P = RENDER_CLOUD_PERIOD };
    memset(raw, 0, sizeof *raw * (size_t)P * P);
    float weight = 0.0f, amplitude = 1.0f;
    int size = 16, shift = 4;   /* size and cells are powers of two: shifts and masks, not divisions */
    for (int o = 0; o < SKY_CLOUD_OCTAVES; o++, size /= 2, shift--, amplitude *= 0.6f) {
        int cells = P / size, wrap = cells - 1;
        float fx_of[16];
        for (int r = 0; r < size; r++) {
            float f = (float)r / (float)size;
            fx_of[r] = f * f * (3.0f - 2.0f * f);
        }
        for (int z = 0; z < P; z++) {
            int j = z >> shift;
            float fz = fx_of[z & (size - 1)];
            const float *row0 = l->values[o] + (size_t)j * cells;
            const float *row1 = l->values[o] + (size_t)((j + 1) & wrap) * cells;
            float *out = raw + (size_t)z * P;
            for (int x = 0; x < P; x++) {
                int i = x >> shift, i1 = (i + 1) & wrap;
                float fx = fx_of[x & (size - 1)];
                float a = row0[i], b = row0[i1], c = row1[i], d = row1[i1];
                float near = a + (b - a) * fx, far = c + (d - c) * fx;
                out[x] += amplitude * (near + (far - near) * fz);
            }
        }
        weight += amplitude;
    }
    for (size_t k = 0; k < (size_t)P * P; k++)
        raw[k] /= weight;
}

/* The raw density above which SKY_CLOUD_COVER of the period lies: from a histogram of every texel's. */
static float sky_cloud_edge(const float *raw)
{
    enum { BINS = 1024 };
    int histogram[BINS] = { 0 };
    size_t n = (size_t)RENDER_CLOUD_PERIOD * RENDER_CLOUD_PERIOD;
    for (size_t k = 0; k < n; k++) {
        int bin = (int)(raw[k] * BINS);
        histogram[bin < 0 ? 0 : bin >= BINS ? BINS - 1 : bin]++;
    }
    size_t above = 0, want = (size_t)((double)n * SKY_CLOUD_COVER);
    int bin = BINS - 1;
    while (bin > 0 && above + (size_t)histogram[bin] < want)
        above += (size_t)histogram[bin--];
    return (float)bin / BINS;
}

static float sky_cloud_store(float raw, float edge)
{
    float v = 0.5f + (raw - edge) * SKY_CLOUD_GAIN;
    return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

float render_sky_cloud_density(int x, int z)
{
    static float edge = -1.0f;   /* the texture's edge: the same for every call */
    if (edge < 0.0f) {
        float *raw = malloc(sizeof *raw * (size_t)RENDER_CLOUD_PERIOD * RENDER_CLOUD_PERIOD);
        if (!raw)
            return 0.0f;
        for (int j = 0; j < RENDER_CLOUD_PERIOD; j++)
            for (int i = 0; i < RENDER_CLOUD_PERIOD; i++)
                raw[(size_t)j * RENDER_CLOUD_PERIOD + i] = sky_cloud_raw(i, j);
        edge = sky_cloud_edge(raw);
        free(raw);
    }
    x = ((x % RENDER_CLOUD_PERIOD) + RENDER_CLOUD_PERIOD) % RENDER_CLOUD_PERIOD;
    z = ((z % RENDER_CLOUD_PERIOD) + RENDER_CLOUD_PERIOD) % RENDER_CLOUD_PERIOD;
    return sky_cloud_store(sky_cloud_raw(x, z), edge);
}

bool render_sky_cloud_texels(uint8_t *cells)
{
    size_t n = (size_t)RENDER_CLOUD_PERIOD * RENDER_CLOUD_PERIOD;
    float *raw = malloc(sizeof *raw * n);
    SkyLattice lattice;
    bool ok = raw && sky_lattice_make(&lattice);
    if (ok)
        sky_cloud_field(&lattice, raw);
    if (raw)
        sky_lattice_free(&lattice);
    if (!ok) {
        free(raw);
        return false;
    }
    float edge = sky_cloud_edge(raw);
    for (size_t k = 0; k < n; k++)
        cells[k] = (uint8_t)lrintf(sky_cloud_store(raw[k], edge) * 255.0f);
    free(raw);
    return true;
}

/* The cloud density as an R8 texture on RENDER_CLOUD_UNIT, 0.5 at a cloud's edge, filtered and mipmapped so
 * a cloud's edge is soft and the layer far off is an even haze instead of streaks. The mips are box-filtered
 * here (render_texture_r8_mipmapped): glGenerateMipmap cost llvmpipe ~0.1 s of CPU at start-up. */
static bool render_sky_make_clouds(RenderSky *sky)
{
    uint8_t *cells = malloc((size_t)RENDER_CLOUD_PERIOD * RENDER_CLOUD_PERIOD);
    if (!cells || !render_sky_cloud_texels(cells)) {
        free(cells);
        return false;
    }
    glGenTextures(1, &sky->clouds);
    glActiveTexture(GL_TEXTURE0 + RENDER_CLOUD_UNIT);
    glBindTexture(GL_TEXTURE_2D, sky->clouds);
    bool ok = render_texture_r8_mipmapped(RENDER_CLOUD_PERIOD, RENDER_CLOUD_PERIOD, cells);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    glActiveTexture(GL_TEXTURE0);
    free(cells);
    return ok;
}

static StResult render_sky_program(RenderSkyProgram *p, const char *shader_dir, const char *defines)
{
    StResult rc = render_shader_load_variant(shader_dir, "sky.vert", "sky.frag", defines, &p->program);
    if (rc != ST_OK)
        return rc;
    GLuint g = p->program;
    p->u_inv_view_proj = render_shader_uniform(g, "u_inv_view_proj");
    p->u_horizon = render_shader_uniform(g, "u_horizon");
    p->u_zenith = render_shader_uniform(g, "u_zenith");
    p->u_sun = render_shader_uniform(g, "u_sun");
    p->u_glow_dir = render_shader_uniform(g, "u_glow_dir");
    p->u_low = render_shader_uniform(g, "u_low");
    p->u_night = render_shader_uniform(g, "u_night");
    p->u_moon = render_shader_uniform(g, "u_moon");
    p->u_camera = render_shader_uniform(g, "u_camera");
    p->u_cloud_shift = render_shader_uniform(g, "u_cloud_shift");
    p->u_fog = render_shader_uniform(g, "u_fog");
    p->u_cloud_color = render_shader_uniform(g, "u_cloud_color");
    p->u_cloud_alpha = render_shader_uniform(g, "u_cloud_alpha");
    glUseProgram(g);
    glUniform1i(render_shader_uniform(g, "u_clouds"), RENDER_CLOUD_UNIT);
    glUniform1f(render_shader_uniform(g, "u_cloud_scale"), 1.0f / (SKY_CLOUD_TEXEL * RENDER_CLOUD_PERIOD));
    glUseProgram(0);
    return ST_OK;
}

StResult render_sky_create(RenderSky *sky, const char *shader_dir)
{
    memset(sky, 0, sizeof *sky);
    StResult rc = render_sky_program(&sky->day, shader_dir, NULL);
    if (rc == ST_OK)
        rc = render_sky_program(&sky->night, shader_dir, "#define STARS\n");
    if (rc == ST_OK && !render_sky_make_clouds(sky))
        rc = st_fail(ST_ERR_NOMEM, "out of memory for the sky's cloud texture");
    if (rc != ST_OK) {
        render_sky_destroy(sky);
        return rc;
    }
    glGenVertexArrays(1, &sky->vao);
    return ST_OK;
}

void render_sky_destroy(RenderSky *sky)
{
    if (sky->vao)
        glDeleteVertexArrays(1, &sky->vao);
    if (sky->day.program)
        glDeleteProgram(sky->day.program);
    if (sky->night.program)
        glDeleteProgram(sky->night.program);
    if (sky->clouds)
        glDeleteTextures(1, &sky->clouds);
    memset(sky, 0, sizeof *sky);
}

void render_sky_draw(const RenderSky *sky, mat4 view_proj, const RenderCamera *camera, const RenderFrame *frame,
                     const float horizon[3], float fog_start, float fog_end)
{
    mat4 inverse;
    glm_mat4_inv(view_proj, inverse);
    float sun[3];
    renderer_sun_direction(frame->time_of_day, sun);
    float daylight = frame->sky_brightness;
    /* Per frame, not per pixel: the zenith (bluer, and towards night blue while the sun is low), the glow's
     * centre and strength, the stars' brightness, whether the moon is up, the clouds' colour. */
    float low = fminf(fmaxf(1.0f - fabsf(sun[1]) * 4.0f, 0.0f), 1.0f);
    static const float zenith_tint[3] = { 0.55f, 0.70f, 0.98f }, dusk_zenith[3] = { 0.14f, 0.20f, 0.42f };
    float zenith[3], cloud[3];
    for (int c = 0; c < 3; c++) {
        float day = horizon[c] * zenith_tint[c], dusk = dusk_zenith[c] * (0.3f + 0.7f * daylight);
        zenith[c] = day + (dusk - day) * low * 0.85f;
        float shade = horizon[c] * 0.6f + 0.02f;
        cloud[c] = shade + (1.0f - shade) * daylight;
    }
    float glow_length = sqrtf(sun[0] * sun[0] + 0.01f + sun[2] * sun[2]);
    float glow_dir[3] = { sun[0] / glow_length, 0.1f / glow_length, sun[2] / glow_length };
    float night = fminf(fmaxf(-sun[1] * 5.0f, 0.0f), 1.0f);
    const RenderSkyProgram *p = night > 0.0f ? &sky->night : &sky->day;
    /* The cloud pattern repeats every RENDER_CLOUD_PERIOD cells: wrap the camera there so floats stay exact. */
    const double period = (double)SKY_CLOUD_TEXEL * RENDER_CLOUD_PERIOD;
    double shift = fmod(frame->game_seconds * 1.2, period);
    float camera_pos[3] = { (float)fmod(camera->position[0], period), (float)camera->position[1],
                            (float)fmod(camera->position[2], period) };
    glUseProgram(p->program);
    glUniformMatrix4fv(p->u_inv_view_proj, 1, GL_FALSE, (const float *)inverse);
    glUniform3fv(p->u_horizon, 1, horizon);
    glUniform3fv(p->u_zenith, 1, zenith);
    glUniform3fv(p->u_sun, 1, sun);
    glUniform3fv(p->u_glow_dir, 1, glow_dir);
    glUniform1f(p->u_low, low);
    glUniform1f(p->u_night, night);
    glUniform1f(p->u_moon, -sun[1] > -0.05f ? 1.0f : 0.0f);
    glUniform3fv(p->u_camera, 1, camera_pos);
    glUniform1f(p->u_cloud_shift, (float)shift);
    glUniform2f(p->u_fog, fog_start, fog_end);
    glUniform3fv(p->u_cloud_color, 1, cloud);
    glUniform1f(p->u_cloud_alpha, 0.35f + 0.5f * daylight);
    glActiveTexture(GL_TEXTURE0 + RENDER_CLOUD_UNIT);
    glBindTexture(GL_TEXTURE_2D, sky->clouds);
    glActiveTexture(GL_TEXTURE0);
    /* At the far plane (depth 1) with the depth test on and writes off: drawn after the opaque terrain, the
     * dome shades only the pixels nothing covers (a third to a half of the screen, not all of it). */
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glBindVertexArray(sky->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glDepthMask(GL_TRUE);
}
