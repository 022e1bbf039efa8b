/* test_render_clouds.c — the sky's cloud layer (Step 16: clouds drew as flat shards with cut edges and
 * aliased into streaks near the horizon). Its density texture (render_sky_cloud_density), and the dome drawn
 * from below the clouds at noon: clouds show (pixels well whiter than the clear sky), and nowhere in the sky
 * does a pixel step sharply from its neighbour (the old cells went from clear to cloud in one pixel, and near
 * the horizon in stripes of single pixels). */
#define _GNU_SOURCE
#include "render_fixture.h"

/* The cloud layer's density: a pattern that repeats every RENDER_CLOUD_PERIOD texels (the texture wraps there
 * without a seam), covers about a third of the sky, and is smooth: neighbouring texels differ by little (the
 * old layer was cells of cloud or clear, so an edge was a step from 0 to 1 a pixel wide), across the wrap
 * too, and a cloud's edge is a ramp several texels wide. */
static void test_cloud_density(void)
{
    enum { N = RENDER_CLOUD_PERIOD };
    int covered = 0, samples = 0;
    float steepest = 0.0f;
    for (int z = 0; z < N; z += 3)
        for (int x = 0; x < N; x += 3) {
            float d = render_sky_cloud_density(x, z);
            CHECK(d >= 0.0f && d <= 1.0f);
            covered += d > 0.5f;
            samples++;
            float step = fabsf(d - render_sky_cloud_density(x + 1, z));
            steepest = step > steepest ? step : steepest;
            if (x % 51 == 0 && z % 51 == 0) {
                CHECK(d == render_sky_cloud_density(x + N, z));
                CHECK(d == render_sky_cloud_density(x, z - N));
                CHECK(d == render_sky_cloud_density(x - 5 * N, z + 2 * N));
            }
        }
    fprintf(stderr, "clouds: %.1f%% covered, steepest step between neighbours %.3f\n", 100.0 * covered / samples,
            steepest);
    CHECK(covered > samples / 4 && covered < samples / 2);
    CHECK(steepest < 0.35f);   /* the finest octave is 2 texels; a step of cloud to clear was 1 */
    float seam = 0.0f;
    for (int z = 0; z < N; z++) {
        float step = fabsf(render_sky_cloud_density(N - 1, z) - render_sky_cloud_density(N, z));
        seam = step > seam ? step : seam;
    }
    CHECK(seam < 0.35f);
}

/* The texture the dome draws is that density, texel for texel: the renderer makes it an octave at a time
 * from a table (render_sky_cloud_texels), the density one texel at a time from the hash. */
static void test_cloud_texels_match_density(void)
{
    enum { N = RENDER_CLOUD_PERIOD };
    uint8_t *texels = malloc((size_t)N * N);
    CHECK(texels && render_sky_cloud_texels(texels));
    if (!texels)
        return;
    int differ = 0, clear = 0, cloud = 0;
    for (int z = 0; z < N; z++)
        for (int x = 0; x < N; x++) {
            uint8_t t = texels[(size_t)z * N + x];
            differ += t != (uint8_t)lrintf(render_sky_cloud_density(x, z) * 255.0f);
            clear += t == 0;
            cloud += t == 255;
        }
    CHECK(differ == 0);
    CHECK(clear > 0 && cloud > 0);   /* both ends of the ramp occur: the bytes are not all one value */
    free(texels);
}

/* Steps of brightness (the sum of the channels) between horizontal neighbours over four views of the sky:
 * a soft layer has no step over 90 (30 levels a channel; the old cells gave 2,080 of them in these views),
 * while pixels well whiter than the clear sky show that there are clouds at all. */
static void test_clouds_soft(void)
{
    Renderer *r = test_create();
    if (!r)
        return;
    RenderFrame frame = test_frame(0.016f);
    frame.sky_detail = true;
    uint8_t sky[3];
    test_sky_bytes(0.5f, sky);
    int cloudy = 0, sharp = 0, pairs = 0;
    /* yaw, pitch, x (z = x / 2), all facing away from the sun (it leans south): its disc has a hard rim */
    static const float views[][3] = { { 0.0f, 8.0f, 0.0f }, { 90.0f, 25.0f, 700.0f }, { 20.0f, 50.0f, 1900.0f },
                                      { 300.0f, 3.0f, 3100.0f } };
    for (size_t v = 0; v < sizeof views / sizeof views[0]; v++) {
        RenderCamera cam = { { views[v][2], 70.0, views[v][2] * 0.5 }, views[v][0], views[v][1], 70.0f };
        renderer_draw(r, &cam, &frame);
        TestImage image;
        char name[32];
        snprintf(name, sizeof name, "clouds_%zu.png", v);
        if (!test_capture(r, name, &image))
            continue;
        for (int y = 0; y < TEST_HEIGHT; y++)
            for (int x = 0; x + 1 < TEST_WIDTH; x++) {
                if (abs(x - TEST_WIDTH / 2) < 14 && abs(y - TEST_HEIGHT / 2) < 14)
                    continue; /* the crosshair */
                const uint8_t *a = test_pixel(&image, x, y), *b = test_pixel(&image, x + 1, y);
                int la = a[0] + a[1] + a[2], lb = b[0] + b[1] + b[2];
                cloudy += a[0] > sky[0] + 40;
                sharp += abs(la - lb) > 90;
                pairs++;
            }
        stbi_image_free(image.pixels);
    }
    fprintf(stderr, "clouds: %d cloudy pixels, %d sharp steps in %d neighbour pairs\n", cloudy, sharp, pairs);
    CHECK(pairs > 0);
    CHECK(cloudy > pairs / 50);
    CHECK(sharp < pairs / 2000);
    renderer_destroy(r);
}

int main(void)
{
    log_set_level(LOG_WARN);
    RUN(test_cloud_density);
    RUN(test_cloud_texels_match_density);
    int rc = render_fixture_start("test_render_clouds");
    if (rc != 0)
        return rc;
    RUN(test_clouds_soft);
    render_fixture_end();
    return check_report();
}
