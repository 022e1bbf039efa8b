/* sky.c — sky colour by time of day, and the fog ranges that blend terrain into it.
 *
 * Design: the sky is the clear colour and the fog colour at once, so distant terrain melts into it
 * with no seam. The colour follows a small keyframe table over the day (0 = midnight, 0.25 dawn,
 * 0.5 noon, 0.75 dusk) with smoothstep between keys, dimmed by sky_brightness. Fog is linear over the
 * horizontal distance, ending exactly at the voxel view distance so chunks appear at the edge already
 * fully fogged. A chunk that just got geometry keeps its own, nearer fog end (Survivalcraft's haze) that
 * recedes outward; its fog band keeps the global band's width so the haze looks the same as the fog. */
#include <math.h>
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
