/* sky.c — sky colour by time of day, and the fog ranges that blend terrain into it.
 *
 * Design: the sky is the clear colour and the fog colour at once, so distant terrain melts into it
 * with no seam. The colour follows a small keyframe table over the day (0 = midnight, 0.25 dawn,
 * 0.5 noon, 0.75 dusk) with smoothstep between keys, dimmed by sky_brightness. Fog is linear over the
 * horizontal distance, ending exactly at the voxel view distance so chunks appear at the edge already
 * fully fogged. A chunk that just got geometry keeps its own, nearer fog end (Survivalcraft's haze) that
 * recedes outward; its fog band keeps the global band's width so the haze looks the same as the fog.
 * The dome (sky.frag, when the frame asks for it) is drawn over the clear: its horizon is that same colour,
 * so the fog still meets the sky without a seam, and it adds the zenith gradient, the sun and moon on their
 * daily circle, stars at night, the sunrise/sunset glow and the drifting cloud layer. The biome at the player
 * (renderer_set_fog) tints that one colour and widens or narrows the fog band, so clear, horizon, voxel fog and
 * far-terrain fog change together and still meet without a seam. */
#include <math.h>
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

StResult render_sky_create(RenderSky *sky, const char *shader_dir)
{
    memset(sky, 0, sizeof *sky);
    StResult rc = render_shader_load(shader_dir, "sky.vert", "sky.frag", &sky->program);
    if (rc != ST_OK)
        return rc;
    sky->u_inv_view_proj = render_shader_uniform(sky->program, "u_inv_view_proj");
    sky->u_horizon = render_shader_uniform(sky->program, "u_horizon");
    sky->u_sun = render_shader_uniform(sky->program, "u_sun");
    sky->u_daylight = render_shader_uniform(sky->program, "u_daylight");
    sky->u_camera = render_shader_uniform(sky->program, "u_camera");
    sky->u_cloud_shift = render_shader_uniform(sky->program, "u_cloud_shift");
    sky->u_fog = render_shader_uniform(sky->program, "u_fog");
    glGenVertexArrays(1, &sky->vao);
    return ST_OK;
}

void render_sky_destroy(RenderSky *sky)
{
    if (sky->vao)
        glDeleteVertexArrays(1, &sky->vao);
    if (sky->program)
        glDeleteProgram(sky->program);
    memset(sky, 0, sizeof *sky);
}

void render_sky_draw(const RenderSky *sky, mat4 view_proj, const RenderCamera *camera, const RenderFrame *frame,
                     const float horizon[3], float fog_start, float fog_end)
{
    mat4 inverse;
    glm_mat4_inv(view_proj, inverse);
    float sun[3];
    renderer_sun_direction(frame->time_of_day, sun);
    /* The cloud pattern repeats every 12 * 4096 blocks: wrap the camera there so floats stay exact. */
    const double period = 12.0 * 4096.0;
    double shift = fmod(frame->game_seconds * 1.2, period);
    float camera_pos[3] = { (float)fmod(camera->position[0], period), (float)camera->position[1],
                            (float)fmod(camera->position[2], period) };
    glUseProgram(sky->program);
    glUniformMatrix4fv(sky->u_inv_view_proj, 1, GL_FALSE, (const float *)inverse);
    glUniform3fv(sky->u_horizon, 1, horizon);
    glUniform3fv(sky->u_sun, 1, sun);
    glUniform1f(sky->u_daylight, frame->sky_brightness);
    glUniform3fv(sky->u_camera, 1, camera_pos);
    glUniform1f(sky->u_cloud_shift, (float)shift);
    glUniform2f(sky->u_fog, fog_start, fog_end);
    glDisable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glBindVertexArray(sky->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glDepthMask(GL_TRUE);
    glEnable(GL_DEPTH_TEST);
}
