/* game_ui.c — the UI's state: settings in effect and in the file, the open screen, the world files' notice
 * (game_ui.h).
 *
 * Design: the settings screen edits settings_file and saves it at once; settings is that plus this run's
 * flags, which win for this run only. The screens never change the game themselves: a click returns what it
 * asked for (screens.h) and the app applies it, so this file needs nothing but its own state and the input's
 * mouse capture. */
#include "ui/game_ui.h"

#include <stdio.h>

#include "hud.h"
#include "strata/log.h"

#define UI_TAG "game"

void game_ui_load_settings(GameUi *ui, CliOptions *o)
{
    ui->pointer_scale = 1.0f;
    if (user_settings_path(ui->settings_path, sizeof ui->settings_path) != ST_OK) {
        log_info(UI_TAG, "%s; settings are not saved", st_error_message());
        ui->settings_path[0] = 0;
        user_settings_default(&ui->settings_file);
    } else if (user_settings_load(ui->settings_path, &ui->settings_file) != ST_OK) {
        log_warn(UI_TAG, "settings: %s", st_error_message());
    }
    UserSettings *s = &ui->settings;
    *s = ui->settings_file;
    if (o->view_distance_given) user_settings_set(s, USER_SETTING_VIEW_DISTANCE, o->view_distance);
    else o->view_distance = (int)s->values[USER_SETTING_VIEW_DISTANCE];
    if (o->brightness_given) user_settings_set(s, USER_SETTING_BRIGHTNESS, o->brightness);
    else o->brightness = (float)s->values[USER_SETTING_BRIGHTNESS];
    if (o->fov > 0) user_settings_set(s, USER_SETTING_FOV, o->fov);
    if (o->gui_scale >= 0) user_settings_set(s, USER_SETTING_GUI_SCALE, o->gui_scale);
    if (o->volume >= 0.0f) user_settings_set(s, USER_SETTING_VOLUME, o->volume);
    if (o->threads > 0) user_settings_set(s, USER_SETTING_THREADS, o->threads);
    else o->threads = (int)s->values[USER_SETTING_THREADS]; /* 0: one a core (app.c) */
    if (o->fullscreen || o->windowed) user_settings_set(s, USER_SETTING_FULLSCREEN, o->fullscreen ? 1.0 : 0.0);
}

void game_ui_store_setting(GameUi *ui, UserSettingId id, double value)
{
    user_settings_set(&ui->settings_file, id, value);
    user_settings_set(&ui->settings, id, value);
    if (ui->settings_path[0] && user_settings_save(ui->settings_path, &ui->settings_file) != ST_OK)
        log_warn(UI_TAG, "%s", st_error_message());
}

void game_ui_set_screen(GameUi *ui, InputState *input, UiScreen screen, bool driven)
{
    if (ui->screen == screen) return;
    ui->screen = screen;
    input->ui_open = screen != UI_SCREEN_PLAY;
    input->dig_held = input->place_held = false;
    if (screen != UI_SCREEN_PLAY) input_set_captured(input, false);
    else if (!driven) input_set_captured(input, true);
}

bool game_ui_paused(const GameUi *ui) { return ui->screen == UI_SCREEN_PAUSE || ui->screen == UI_SCREEN_SETTINGS; }

void game_ui_check_storage(GameUi *ui, const WorldSession *ws)
{
    if (!ws->serializer) return;
    SerializerStats now;
    serializer_get_stats(ws->serializer, &now);
    char text[sizeof ui->storage_notice];
    if (hud_compose_storage_notice(&ui->storage_seen, &now, text, sizeof text)) {
        snprintf(ui->storage_notice, sizeof ui->storage_notice, "%s", text);
        ui->storage_notice_seconds = 12.0;
        log_warn(UI_TAG, "%s", text);
    }
    ui->storage_seen = now;
}
