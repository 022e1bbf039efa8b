/* test_game_logic.c — camera conventions (yaw 0 north/-Z, 90 east/+X, pitch -90 down), time of day and
 * Survivalcraft's sky light steps, the FPS meter and the HUD text, the look settings (season names, the B and
 * N cycles) and the frame probe's box and pixel rule. */
#include <math.h>

#include "camera.h"
#include "check.h"
#include "frame_probe.h"
#include "settings.h"
#include "daytime.h"
#include "hud.h"

static void test_camera(void)
{
    float d[3], f[3], r[3];
    camera_look_direction(0.0f, 0.0f, d);
    CHECK_NEAR(d[0], 0.0, 1e-6); CHECK_NEAR(d[1], 0.0, 1e-6); CHECK_NEAR(d[2], -1.0, 1e-6);
    camera_look_direction(90.0f, 0.0f, d);
    CHECK_NEAR(d[0], 1.0, 1e-6); CHECK_NEAR(d[2], 0.0, 1e-6);
    camera_look_direction(123.0f, -90.0f, d);
    CHECK_NEAR(d[0], 0.0, 1e-6); CHECK_NEAR(d[1], -1.0, 1e-6); CHECK_NEAR(d[2], 0.0, 1e-6);
    camera_look_direction(0.0f, -30.0f, d);
    CHECK_NEAR(d[1], -0.5, 1e-6); CHECK_NEAR(d[2], -sqrt(3.0) / 2.0, 1e-6);
    camera_walk_axes(0.0f, f, r);
    CHECK_NEAR(f[2], -1.0, 1e-6); CHECK_NEAR(r[0], 1.0, 1e-6);
    camera_walk_axes(90.0f, f, r);
    CHECK_NEAR(f[0], 1.0, 1e-6); CHECK_NEAR(r[2], 1.0, 1e-6);
    CHECK_NEAR(camera_wrap_yaw(-90.0f), 270.0, 1e-4);
    CHECK_NEAR(camera_wrap_yaw(720.0f), 0.0, 1e-4);
    CHECK_NEAR(camera_clamp_pitch(-120.0f), -90.0, 0);
    CHECK_NEAR(camera_clamp_pitch(45.0f), 45.0, 0);
    CHECK(!strcmp(camera_compass(0.0f), "N"));
    CHECK(!strcmp(camera_compass(90.0f), "E"));
    CHECK(!strcmp(camera_compass(181.0f), "S"));
    CHECK(!strcmp(camera_compass(-45.0f), "NW"));
}

static void test_daytime(void)
{
    CHECK_EQ_INT(daytime_sky_light(0.5f), 15);
    CHECK_EQ_INT(daytime_sky_light(0.0f), 3);
    CHECK_EQ_INT(daytime_sky_light(0.9f), 3);
    CHECK_NEAR(daytime_light_intensity(0.25f), 0.5, 1e-5);
    CHECK_NEAR(daytime_light_intensity(0.75f), 0.5, 1e-5);
    /* Dawn walks up through every step, each of them one of Survivalcraft's values. */
    int seen = 0, prev = 0;
    for (int i = 0; i <= 1000; i++) {
        float t = 0.15f + 0.2f * (float)i / 1000.0f;
        int l = daytime_sky_light(t);
        CHECK(l == 3 || l == 5 || l == 8 || l == 10 || l == 13 || l == 15);
        CHECK(l >= prev);
        if (l != prev) seen++;
        prev = l;
    }
    CHECK_EQ_INT(seen, 6);
    /* A full day is 20 minutes of game time. */
    CHECK_NEAR(daytime_advance(0.5f, DAYTIME_DAY_SECONDS / 4.0), 0.75, 1e-6);
    CHECK_NEAR(daytime_advance(0.9f, DAYTIME_DAY_SECONDS * 0.2), 0.1, 1e-5);
    CHECK_NEAR(daytime_wrap(-0.25), 0.75, 1e-6);
    char clock[8];
    daytime_format_clock(0.5f, clock, sizeof clock);
    CHECK(!strcmp(clock, "12:00"));
    daytime_format_clock(0.999999f, clock, sizeof clock);
    CHECK(!strcmp(clock, "23:59"));
}

static void test_fps_and_hud(void)
{
    FpsMeter m = {0};
    CHECK_NEAR(fps_meter_fps(&m), 0.0, 0);
    for (int i = 0; i < 500; i++) fps_meter_add(&m, 1.0 / 50.0);
    CHECK_NEAR(fps_meter_fps(&m), 50.0, 0.01);
    fps_meter_add(&m, 0.1); /* one 100 ms hitch moves the smoothed value only a little */
    CHECK(fps_meter_fps(&m) > 30.0);

    HudInfo info = {.fps = 59.94f, .position = {-17.25, 70.0, 3.5}, .yaw_deg = 90.0f, .pitch_deg = -30.0f,
                    .flying = true, .chunks_allocated = 441, .chunks_valid = 289, .chunks_drawn = 120,
                    .triangles = 123456, .selected_block = "planks", .selected_slot = 3, .time_of_day = 0.25f,
                    .sky_light = 10, .brightness = 0.75f, .season = "winter", .has_target = true,
                    .target = {1, 2, -3}, .target_block = "stone", .rss_mb = 212.4, .chunks_mb = 8.6,
                    .hot_chunks = 3};
    HudLines lines;
    hud_compose(&info, &lines);
    CHECK(lines.count >= 6 && lines.count <= HUD_MAX_LINES);
    char all[HUD_MAX_LINES * HUD_LINE_MAX + 1] = {0};
    for (int i = 0; i < lines.count; i++) { strcat(all, lines.text[i]); strcat(all, "\n"); }
    CHECK_STR_CONTAINS(all, "59.9 FPS");
    CHECK_STR_CONTAINS(all, "Position -17.25 70.00 3.50");
    CHECK_STR_CONTAINS(all, "chunk -2,0");
    CHECK_STR_CONTAINS(all, "flying");
    CHECK_STR_CONTAINS(all, "Facing E");
    CHECK_STR_CONTAINS(all, "Chunks 441/289/120 alloc/valid/drawn  123k tris");
    CHECK_STR_CONTAINS(all, "Block [3] planks");
    CHECK_STR_CONTAINS(all, "Time 06:00");
    CHECK_STR_CONTAINS(all, "sky light 10");
    CHECK_STR_CONTAINS(all, "brightness 0.75  winter");
    CHECK_STR_CONTAINS(all, "Looking at stone  1 2 -3");
    CHECK_STR_CONTAINS(all, "Memory 212 MB  chunk cells 8.6 MB (20.0 KB/chunk, 3 hot)");
    char title[128];
    hud_format_title(&info, title, sizeof title);
    CHECK_STR_CONTAINS(title, "60 FPS");
    CHECK_STR_CONTAINS(title, "-17.2 70.0 3.5");
}

static void test_settings(void)
{
    CHECK_EQ_INT(settings_season_parse("spring"), MESHER_SEASON_SPRING);
    CHECK_EQ_INT(settings_season_parse("summer"), MESHER_SEASON_SUMMER);
    CHECK_EQ_INT(settings_season_parse("autumn"), MESHER_SEASON_AUTUMN);
    CHECK_EQ_INT(settings_season_parse("winter"), MESHER_SEASON_WINTER);
    CHECK_EQ_INT(settings_season_parse("fall"), -1);
    CHECK_EQ_INT(settings_season_parse(""), -1);
    CHECK_EQ_INT(settings_season_parse(NULL), -1);
    for (int s = MESHER_SEASON_SPRING; s <= MESHER_SEASON_WINTER; s++)
        CHECK_EQ_INT(settings_season_parse(settings_season_name(s)), s);
    CHECK(!strcmp(settings_season_name(4), "?"));
    CHECK(!strcmp(settings_season_name(-1), "?"));
    /* N: spring -> summer -> autumn -> winter -> spring */
    CHECK_EQ_INT(settings_season_next(MESHER_SEASON_SPRING), MESHER_SEASON_SUMMER);
    CHECK_EQ_INT(settings_season_next(MESHER_SEASON_AUTUMN), MESHER_SEASON_WINTER);
    CHECK_EQ_INT(settings_season_next(MESHER_SEASON_WINTER), MESHER_SEASON_SPRING);
    CHECK_EQ_INT(settings_season_next(-3), MESHER_SEASON_SPRING);
    /* B: 0 -> 0.25 -> 0.5 -> 0.75 -> 1 -> 0; a value between steps goes up to the next one */
    float b = 0.0f;
    const float want[] = {0.25f, 0.5f, 0.75f, 1.0f, 0.0f, 0.25f};
    for (int i = 0; i < 6; i++) {
        b = settings_brightness_next(b);
        CHECK_NEAR(b, want[i], 1e-6);
    }
    CHECK_NEAR(settings_brightness_next(0.6f), 0.75, 1e-6);
    CHECK_NEAR(settings_brightness_next(0.99f), 1.0, 1e-6);
    CHECK_NEAR(settings_brightness_next(1.0f), 0.0, 1e-6);
    CHECK_NEAR(SETTINGS_BRIGHTNESS_DEFAULT, 0.5, 0);
    CHECK_EQ_INT(SETTINGS_SEASON_DEFAULT, MESHER_SEASON_SUMMER);
}

static void test_frame_probe(void)
{
    int x, y, w, h;
    frame_probe_box(1280, 720, &x, &y, &w, &h);
    CHECK_EQ_INT(w, 120);
    CHECK_EQ_INT(h, 120);
    CHECK_EQ_INT(x, 580);
    CHECK_EQ_INT(y, 300);
    frame_probe_box(64, 40, &x, &y, &w, &h); /* the minimum side */
    CHECK_EQ_INT(w, FRAME_PROBE_MIN_SIDE);
    CHECK_EQ_INT(x, 24);
    CHECK_EQ_INT(y, 12);
    frame_probe_box(10, 8, &x, &y, &w, &h); /* clipped to a tiny framebuffer */
    CHECK(w == 10 && h == 8 && x == 0 && y == 0);

    enum { N = 100 };
    uint8_t a[N * 4], b[N * 4];
    for (int i = 0; i < N * 4; i++) a[i] = b[i] = (uint8_t)(i * 7);
    CHECK_EQ_INT(frame_probe_count_differing(a, b, N, FRAME_PROBE_CHANNEL_DELTA), 0);
    b[3] = (uint8_t)(b[3] + 200);                  /* alpha does not count */
    b[4 * 5 + 1] = (uint8_t)(a[4 * 5 + 1] + 24);   /* exactly the delta: not different */
    CHECK_EQ_INT(frame_probe_count_differing(a, b, N, FRAME_PROBE_CHANNEL_DELTA), 0);
    b[4 * 5 + 1] = (uint8_t)(a[4 * 5 + 1] + 25);   /* one more: different */
    CHECK_EQ_INT(frame_probe_count_differing(a, b, N, FRAME_PROBE_CHANNEL_DELTA), 1);
    CHECK(!frame_probe_is_notable(1, N));          /* 1% of the box */
    b[4 * 9 + 2] = (uint8_t)(a[4 * 9 + 2] - 30);   /* a second pixel, in blue, darker */
    CHECK_EQ_INT(frame_probe_count_differing(a, b, N, FRAME_PROBE_CHANNEL_DELTA), 2);
    CHECK(frame_probe_is_notable(2, N));           /* 2%: notable */
    CHECK(!frame_probe_is_notable(0, 0));
}

int main(void)
{
    RUN(test_settings);
    RUN(test_frame_probe);
    RUN(test_camera);
    RUN(test_daytime);
    RUN(test_fps_and_hud);
    return check_report();
}
