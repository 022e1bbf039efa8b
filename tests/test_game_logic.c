/* test_game_logic.c — camera conventions (yaw 0 north/-Z, 90 east/+X, pitch -90 down), time of day and
 * Survivalcraft's sky light steps, the FPS meter and the HUD text. */
#include <math.h>

#include "camera.h"
#include "check.h"
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
                    .sky_light = 10, .has_target = true, .target = {1, 2, -3}, .target_block = "stone"};
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
    CHECK_STR_CONTAINS(all, "Looking at stone  1 2 -3");
    char title[128];
    hud_format_title(&info, title, sizeof title);
    CHECK_STR_CONTAINS(title, "60 FPS");
    CHECK_STR_CONTAINS(title, "-17.2 70.0 3.5");
}

int main(void)
{
    RUN(test_camera);
    RUN(test_daytime);
    RUN(test_fps_and_hud);
    return check_report();
}
