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
#include "hotbar.h"
#include "audio_mix.h"
#include "biome_fog.h"
#include "user_settings.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/fileio.h"

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

/* The hotbar: selection by slot, wheel (wrapping) and pick; air never enters; hotbar.json round trip,
 * an older world without the file, a bad file naming its field, an unknown block name. */
static void test_hotbar(void)
{
    BlockRegistry *blocks = NULL;
    CHECK_EQ_INT(block_registry_load("assets/blocks.json", &blocks), ST_OK);
    if (!blocks) return;
    Hotbar h;
    hotbar_default(&h);
    CHECK_EQ_INT(h.selected, 0);
    CHECK_EQ_INT(hotbar_block(&h), BLOCK_DIRT);
    hotbar_select(&h, 3);
    CHECK_EQ_INT(h.selected, 3);
    hotbar_select(&h, 9); /* out of range: ignored */
    CHECK_EQ_INT(h.selected, 3);
    hotbar_scroll(&h, 7);
    CHECK_EQ_INT(h.selected, 1);
    hotbar_scroll(&h, -3);
    CHECK_EQ_INT(h.selected, 7);
    hotbar_set(&h, 2, BLOCK_AIR);
    CHECK_EQ_INT(h.slots[2], BLOCK_PLANKS);
    hotbar_set(&h, 2, BLOCK_GRASS);
    CHECK_EQ_INT(h.slots[2], BLOCK_GRASS);
    hotbar_pick(&h, BLOCK_STONE); /* on the hotbar: its slot is selected */
    CHECK_EQ_INT(h.selected, 1);
    hotbar_pick(&h, BLOCK_GRAVEL); /* not on it: the selected slot takes it */
    CHECK_EQ_INT(h.selected, 1);
    CHECK_EQ_INT(h.slots[1], BLOCK_GRAVEL);
    CHECK_EQ_INT(hotbar_find(&h, BLOCK_STONE), -1);

    char dir[] = "/tmp/strata_test_hotbar_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    Hotbar loaded;
    hotbar_default(&loaded);
    CHECK_EQ_INT(hotbar_load(dir, blocks, &loaded), ST_ERR_NOT_FOUND); /* an older world: defaults stay */
    CHECK_EQ_INT(loaded.slots[1], BLOCK_STONE);
    CHECK_EQ_INT(hotbar_save(dir, blocks, &h), ST_OK);
    CHECK_EQ_INT(hotbar_load(dir, blocks, &loaded), ST_OK);
    CHECK(memcmp(&loaded, &h, sizeof h) == 0);
    char path[128];
    snprintf(path, sizeof path, "%s/hotbar.json", dir);
    static const char bad[] = "{\"format_version\": 1, \"slots\": [\"dirt\"], \"selected\": 1}";
    CHECK_EQ_INT(fileio_write_atomic(path, bad, sizeof bad - 1), ST_OK);
    CHECK_EQ_INT(hotbar_load(dir, blocks, &loaded), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "slots");
    static const char odd[] = "{\"format_version\": 1, \"slots\": [\"dirt\", \"no_such_block\", \"sand\", \"sand\", "
                              "\"sand\", \"sand\", \"sand\", \"sand\", \"sand\"], \"selected\": 9}";
    CHECK_EQ_INT(fileio_write_atomic(path, odd, sizeof odd - 1), ST_OK);
    hotbar_default(&loaded);
    CHECK_EQ_INT(hotbar_load(dir, blocks, &loaded), ST_OK);
    CHECK_EQ_INT(loaded.slots[1], BLOCK_STONE); /* unknown name: the slot keeps its block */
    CHECK_EQ_INT(loaded.slots[8], BLOCK_SAND);
    CHECK_EQ_INT(loaded.selected, 8);
    remove(path);
    remove(dir);
    block_registry_destroy(blocks);
}

/* Settings: the table's defaults, clamping and steps, the screen's text, settings.json round trip, a missing
 * file (defaults), a bad one (reported, kept as .bad, replaced by the defaults). */
static void test_user_settings(void)
{
    UserSettings s;
    user_settings_default(&s);
    CHECK_NEAR(s.values[USER_SETTING_VIEW_DISTANCE], 8, 0);
    CHECK_NEAR(s.values[USER_SETTING_VSYNC], 1, 0);
    CHECK_EQ_INT(user_setting_find("fov"), USER_SETTING_FOV);
    CHECK_EQ_INT(user_setting_find("nope"), -1);
    user_settings_set(&s, USER_SETTING_VIEW_DISTANCE, 99);
    CHECK_NEAR(s.values[USER_SETTING_VIEW_DISTANCE], 32, 0);
    user_settings_step(&s, USER_SETTING_VIEW_DISTANCE, -3);
    CHECK_NEAR(s.values[USER_SETTING_VIEW_DISTANCE], 29, 0);
    user_settings_step(&s, USER_SETTING_INVERT_MOUSE, 1);
    CHECK_NEAR(s.values[USER_SETTING_INVERT_MOUSE], 1, 0);
    user_settings_step(&s, USER_SETTING_VOLUME, -3);
    CHECK_NEAR(s.values[USER_SETTING_VOLUME], 0.5, 1e-9);
    char text[32];
    user_settings_format(&s, USER_SETTING_VOLUME, text, sizeof text);
    CHECK(!strcmp(text, "50%"));
    user_settings_format(&s, USER_SETTING_GUI_SCALE, text, sizeof text);
    CHECK(!strcmp(text, "Auto"));
    user_settings_format(&s, USER_SETTING_INVERT_MOUSE, text, sizeof text);
    CHECK(!strcmp(text, "On"));

    char dir[] = "/tmp/strata_test_settings_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128], bad[140];
    snprintf(path, sizeof path, "%s/strata/settings.json", dir);
    snprintf(bad, sizeof bad, "%s.bad", path);
    UserSettings loaded;
    CHECK_EQ_INT(user_settings_load(path, &loaded), ST_OK); /* missing: defaults, nothing written */
    CHECK(!fileio_exists(path));
    CHECK_EQ_INT(user_settings_save(path, &s), ST_OK);
    CHECK_EQ_INT(user_settings_load(path, &loaded), ST_OK);
    CHECK(memcmp(&loaded, &s, sizeof s) == 0);
    static const char broken[] = "{\"fov\": 500, \"volume\": 0.5}";
    CHECK_EQ_INT(fileio_write_atomic(path, broken, sizeof broken - 1), ST_OK);
    CHECK_EQ_INT(user_settings_load(path, &loaded), ST_ERR_FORMAT);
    CHECK_STR_CONTAINS(st_error_message(), "fov");
    CHECK_STR_CONTAINS(st_error_message(), ".bad");
    CHECK_NEAR(loaded.values[USER_SETTING_FOV], 75, 0);
    CHECK(fileio_exists(bad));
    CHECK_EQ_INT(user_settings_load(path, &loaded), ST_OK); /* the defaults were written in its place */
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* The mixer without a device: a scripted dig of stone renders the hard dig sample into a buffer: not silent,
 * sample for sample what the WAV holds (gain 1, volume 1), scaled by the volume, then silence when it ends;
 * a loop keeps playing and glides to its gain. */
static void test_audio_mixer(void)
{
    BlockRegistry *blocks = NULL;
    CHECK_EQ_INT(block_registry_load("assets/blocks.json", &blocks), ST_OK);
    AudioMixer mixer;
    CHECK_EQ_INT(audio_mixer_init(&mixer, "assets/sounds"), ST_OK);
    if (!blocks) return;
    CHECK_EQ_INT(audio_material_of(&blocks->defs[BLOCK_STONE]), AUDIO_MATERIAL_HARD);
    CHECK_EQ_INT(audio_material_of(&blocks->defs[BLOCK_PLANKS]), AUDIO_MATERIAL_WOOD);
    CHECK_EQ_INT(audio_material_of(&blocks->defs[BLOCK_SAND]), AUDIO_MATERIAL_SAND);
    CHECK_EQ_INT(audio_material_of(&blocks->defs[BLOCK_GLASS]), AUDIO_MATERIAL_GLASS);
    CHECK_EQ_INT(audio_material_of(&blocks->defs[BLOCK_GRASS]), AUDIO_MATERIAL_SOFT);
    AudioSound dig = audio_dig_sound(audio_material_of(&blocks->defs[BLOCK_STONE]));
    CHECK_EQ_INT(dig, AUDIO_DIG_HARD);
    const AudioSample *sample = &mixer.samples[dig];
    CHECK(sample->count > AUDIO_RATE / 10);
    int n = sample->count + 100;
    int16_t *out = calloc((size_t)(n > AUDIO_RATE * 4 ? n : AUDIO_RATE * 4), sizeof *out);
    audio_mixer_play(&mixer, dig, 1.0f);
    audio_mixer_render(&mixer, out, n);
    long energy = 0;
    int same = 0;
    for (int i = 0; i < sample->count; i++) {
        energy += labs((long)out[i]);
        same += out[i] == sample->pcm[i];
    }
    CHECK(energy / sample->count > 500);          /* not silent */
    CHECK_EQ_INT(same, sample->count);            /* exactly the sample */
    for (int i = sample->count; i < n; i++) CHECK_EQ_INT(out[i], 0);
    mixer.volume = 0.5f;
    audio_mixer_play(&mixer, dig, 1.0f);
    audio_mixer_render(&mixer, out, 1000);
    int max_in = 0, max_out = 0;
    for (int i = 0; i < 1000; i++) {
        max_in = abs(sample->pcm[i]) > max_in ? abs(sample->pcm[i]) : max_in;
        max_out = abs(out[i]) > max_out ? abs(out[i]) : max_out;
    }
    CHECK(abs(max_out - max_in / 2) <= 1);
    mixer.volume = 1.0f;
    audio_mixer_render(&mixer, out, n); /* let the dig finish */
    audio_mixer_set_loop(&mixer, AUDIO_WIND, 0.5f);
    audio_mixer_render(&mixer, out, AUDIO_RATE * 4); /* longer than the loop: it wraps */
    long tail = 0;
    for (int i = AUDIO_RATE * 3; i < AUDIO_RATE * 4; i++) tail += labs((long)out[i]);
    CHECK(tail > 0);
    free(out);
    audio_mixer_free(&mixer);
    block_registry_destroy(blocks);
}

/* The fog easing: the first sample is taken as is, then the fog moves toward a new target by the same amount
 * whatever the frame rate, 96% of the way in 2 s, and never overshoots. */
static void test_biome_fog_ease(void)
{
    BiomeFogEase f;
    biome_fog_init(&f);
    f.started = true;
    f.target.density = 1.0f;
    f.target.color[0] = 1.0f;
    BiomeFogEase g = f;
    for (int i = 0; i < 60; i++)
        biome_fog_ease(&f, 1.0 / 60.0);
    for (int i = 0; i < 120; i++)
        biome_fog_ease(&g, 1.0 / 120.0);
    CHECK_NEAR(f.current.density, g.current.density, 1e-4);
    CHECK_NEAR(f.current.density, 1.0 - exp(-1.0 / BIOME_FOG_EASE_SECONDS), 1e-4);
    CHECK(f.current.density < 1.0f);
    for (int i = 0; i < 60; i++)
        biome_fog_ease(&f, 1.0 / 60.0);
    CHECK(f.current.density > 0.95f && f.current.density <= 1.0f);
    CHECK_NEAR(f.current.color[0], f.current.density, 1e-6);
    biome_fog_ease(&f, 0.0);                /* no time, no change */
    biome_fog_ease(&f, -1.0);
    CHECK(f.current.density > 0.95f && f.current.density <= 1.0f);
    /* the cached samples give exactly the generator's blend, also after moving and after a generator change */
    BlockRegistry *blocks = NULL;
    CHECK(block_registry_load("assets/blocks.json", &blocks) == ST_OK);
    BiomeSet *set = NULL;
    CHECK(biome_set_load("assets/biomes.json", blocks, &set) == ST_OK);
    WorldSettings s;
    world_settings_default(&s);
    s.seed = 1;
    Generator *g1 = NULL, *g2 = NULL;
    CHECK(generator_create(&s, blocks, "assets/worldgen.json", &g1) == ST_OK);
    s.seed = 2;
    CHECK(generator_create(&s, blocks, "assets/worldgen.json", &g2) == ST_OK);
    if (set && g1 && g2) {
        BiomeFogEase e;
        biome_fog_init(&e);
        BiomeFog direct;
        const double path[][2] = {{0, 880}, {3, 884}, {40, 900}, {40, 900}, {-300, 2000}, {-310, 1990}};
        for (int i = 0; i < 6; i++) {
            const Generator *g = i < 4 ? g1 : g2;
            biome_fog_update(&e, set, g, path[i][0], path[i][1], BIOME_FOG_SAMPLE_SECONDS, false);
            biome_set_fog_at_generator(set, g, (float)path[i][0], (float)path[i][1], &direct);
            CHECK(memcmp(&e.target, &direct, sizeof direct) == 0);
        }
        biome_fog_update(&e, set, g1, 0, 880, 0.0, true);   /* snap: current is the target at once */
        biome_set_fog_at_generator(set, g1, 0.0f, 880.0f, &direct);
        CHECK(memcmp(&e.current, &direct, sizeof direct) == 0);
    }
    generator_destroy(g1);
    generator_destroy(g2);
    biome_set_destroy(set);
    block_registry_destroy(blocks);
    /* without a biome set nothing happens */
    BiomeFogEase h;
    biome_fog_init(&h);
    biome_fog_update(&h, NULL, NULL, 0, 0, 0.1, false);
    CHECK(!h.started);
}

int main(void)
{
    RUN(test_audio_mixer);
    RUN(test_user_settings);
    RUN(test_hotbar);
    RUN(test_settings);
    RUN(test_frame_probe);
    RUN(test_camera);
    RUN(test_daytime);
    RUN(test_fps_and_hud);
    RUN(test_biome_fog_ease);
    return check_report();
}
