/* game_ui.h — what is in front of the world: which screen is open (play, pause menu, block picker,
 * settings), the settings in effect and in their file, the world files' notice, and the F3 memory figures.
 * One GameUi per game; the screens draw and hit-test from it (screens.h), the HUD fills from it (hud_fill.h).
 *
 * load_settings: the settings file, then this run's flags on top (they are not written back); without a
 * settings folder nothing is saved. set_screen: opening a screen frees the mouse; play captures it again
 * unless a script or --frames drives the game. check_storage: anything new in the serializer's counters
 * becomes the on-screen notice (12 s) and a log line. Threads: main thread. */
#ifndef STRATA_GAME_UI_H
#define STRATA_GAME_UI_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "input.h"
#include "session/world_session.h"
#include "user_settings.h"
#include "strata/serializer.h"

#define GAME_UI_PATH_MAX 1024

typedef enum UiScreen { UI_SCREEN_PLAY = 0, UI_SCREEN_PAUSE, UI_SCREEN_PICKER, UI_SCREEN_SETTINGS } UiScreen;

typedef struct GameUi {
    UiScreen screen;
    float pointer_scale;          /* framebuffer pixels per window pixel (HiDPI), for clicks */
    UserSettings settings;        /* in effect: the file's, with this run's flags on top */
    UserSettings settings_file;   /* as in settings.json: what the settings screen changes and saves */
    char settings_path[GAME_UI_PATH_MAX]; /* "" when there is no settings folder */
    /* What the world's files told (rolled-forward, damaged or unreadable chunks), shown on screen for a while:
     * the counters last seen, the sentence and its remaining time. */
    SerializerStats storage_seen;
    char storage_notice[256];
    double storage_notice_seconds;
    /* F3's memory line, sampled once a second (hud_fill.c): process RSS and chunk bytes */
    uint32_t memory_sampled_ms;
    double memory_rss_mb, memory_chunks_mb;
    int memory_hot_sampled;   /* hot chunks when last sampled */
} GameUi;

void game_ui_load_settings(GameUi *ui, CliOptions *opts);
/* Changes a setting in effect and in the file (saved now); the caller applies it. */
void game_ui_store_setting(GameUi *ui, UserSettingId id, double value);
void game_ui_set_screen(GameUi *ui, InputState *input, UiScreen screen, bool driven);
/* Whether a menu pauses the game (the pause menu and the settings screen stop the clock and the player). */
bool game_ui_paused(const GameUi *ui);
void game_ui_check_storage(GameUi *ui, const WorldSession *ws);

#endif
