/* screens.c — what the player sees over the world: the hotbar, the block picker, the pause menu and the
 * settings screen; and what a click on them does.
 *
 * Design: immediate mode. Each frame ui_screens_queue lays the open screen out from the framebuffer size and
 * the GUI scale and queues its quads (renderer_ui_*); ui_screens_click lays it out again the same way and hit-
 * tests the click, so drawing and clicking can never disagree; it returns the click's UiAction. One UI pixel is `ui_scale` framebuffer
 * pixels (from the window height, like Minecraft's automatic GUI scale). The picker lists every defined
 * block of the registry (blocks.json order, so modded blocks appear), drawn with its shape; a click puts
 * the block into the selected hotbar slot, a click on a hotbar slot selects it. */
#include "ui/screens.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "strata/log.h"

#define UI_SLOT 22.0f              /* hotbar slot, UI pixels */
#define UI_ICON 16.0f
#define UI_PICKER_COLUMNS 10
#define UI_BUTTON_W 160.0f
#define UI_BUTTON_H 20.0f
#define UI_PAUSE_BUTTONS 3

typedef struct UiRect {
    float x, y, w, h;
} UiRect;

static bool ui_hit(UiRect r, float x, float y)
{
    return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

static float ui_scale(const GameUi *ui, const UiScene *sc)
{
    double chosen = ui->settings.values[USER_SETTING_GUI_SCALE];
    if (chosen >= 1.0) return (float)chosen;
    float s = floorf((float)sc->drawable_h / 320.0f);
    return s < 1.0f ? 1.0f : s;
}

/* ---- layout ---- */

static UiRect ui_hotbar_slot(const GameUi *ui, const UiScene *sc, int slot)
{
    float s = ui_scale(ui, sc), size = UI_SLOT * s;
    float x0 = floorf((float)sc->drawable_w * 0.5f - size * HOTBAR_SLOTS * 0.5f);
    UiRect r = {x0 + size * (float)slot, (float)sc->drawable_h - size - 4.0f * s, size, size};
    return r;
}

/* The picker's blocks: every defined block but air, in id order. Returns how many (ids in out). */
static int ui_picker_blocks(const UiScene *sc, int *out)
{
    const BlockRegistry *b = sc->blocks;
    int n = 0;
    for (int id = 1; id < b->count && n < BLOCK_MAX; id++)
        if (b->defs[id].defined) out[n++] = id;
    return n;
}

static UiRect ui_picker_panel(const GameUi *ui, const UiScene *sc, int count)
{
    float s = ui_scale(ui, sc), cell = UI_SLOT * s;
    int rows = (count + UI_PICKER_COLUMNS - 1) / UI_PICKER_COLUMNS;
    float w = cell * UI_PICKER_COLUMNS + 16.0f * s, h = cell * (float)rows + 40.0f * s;
    UiRect r = {floorf(((float)sc->drawable_w - w) * 0.5f),
                floorf(((float)sc->drawable_h - UI_SLOT * s - 8.0f * s - h) * 0.5f), w, h};
    return r;
}

static UiRect ui_picker_cell(const GameUi *ui, const UiScene *sc, UiRect panel, int index)
{
    float s = ui_scale(ui, sc), cell = UI_SLOT * s;
    UiRect r = {panel.x + 8.0f * s + cell * (float)(index % UI_PICKER_COLUMNS),
                panel.y + 28.0f * s + cell * (float)(index / UI_PICKER_COLUMNS), cell, cell};
    return r;
}

static UiRect ui_button(const GameUi *ui, const UiScene *sc, int index, int count)
{
    float s = ui_scale(ui, sc), w = UI_BUTTON_W * s, h = UI_BUTTON_H * s, gap = 6.0f * s;
    float total = (float)count * h + (float)(count - 1) * gap;
    UiRect r = {floorf(((float)sc->drawable_w - w) * 0.5f),
                floorf(((float)sc->drawable_h - total) * 0.5f + (float)index * (h + gap)), w, h};
    return r;
}

/* ---- drawing ---- */

static void ui_frame(Renderer *r, UiRect q, float t, uint32_t rgba)
{
    renderer_ui_rect(r, q.x, q.y, q.w, t, rgba);
    renderer_ui_rect(r, q.x, q.y + q.h - t, q.w, t, rgba);
    renderer_ui_rect(r, q.x, q.y + t, t, q.h - 2.0f * t, rgba);
    renderer_ui_rect(r, q.x + q.w - t, q.y + t, t, q.h - 2.0f * t, rgba);
}

static void ui_text_centered(Renderer *r, UiRect q, float scale, uint32_t rgba, const char *text)
{
    float w = renderer_ui_text_width(r, scale, text), h = renderer_ui_text_height(r, scale);
    renderer_ui_text(r, floorf(q.x + (q.w - w) * 0.5f), floorf(q.y + (q.h - h) * 0.5f), scale, rgba, text);
}

/* Text with a dark outline one UI pixel wide (the text drawn dark at the eight offsets around it, then over
 * them): it reads over snow, sky and sand alike, where the bare light text vanished. */
static void ui_text_outlined(Renderer *r, UiRect q, float scale, uint32_t rgba, const char *text)
{
    float o = scale < 1.0f ? 1.0f : floorf(scale);
    uint32_t dark = 0x10101000u | ((rgba & 0xFFu) * 0xB0u / 0xFFu);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            if (dx || dy) {
                UiRect at = {q.x + (float)dx * o, q.y + (float)dy * o, q.w, q.h};
                ui_text_centered(r, at, scale, dark, text);
            }
    ui_text_centered(r, q, scale, rgba, text);
}

static void ui_draw_hotbar(GameUi *ui, const UiScene *sc)
{
    Renderer *r = sc->renderer;
    float s = ui_scale(ui, sc);
    UiRect first = ui_hotbar_slot(ui, sc, 0);
    renderer_ui_rect(r, first.x - s, first.y - s, first.w * HOTBAR_SLOTS + 2.0f * s, first.h + 2.0f * s, 0x00000090);
    for (int i = 0; i < HOTBAR_SLOTS; i++) {
        UiRect q = ui_hotbar_slot(ui, sc, i);
        ui_frame(r, q, s, 0x5A5A5AD0);
        float pad = (q.w - UI_ICON * s) * 0.5f;
        renderer_ui_block_icon(r, sc->hotbar->slots[i], q.x + pad, q.y + pad, UI_ICON * s);
    }
    UiRect sel = ui_hotbar_slot(ui, sc, sc->hotbar->selected);
    UiRect big = {sel.x - s, sel.y - s, sel.w + 2.0f * s, sel.h + 2.0f * s};
    ui_frame(r, big, 2.0f * s, 0xF0F0F0FF);
    /* The selected block's name above the hotbar, as Minecraft shows it. */
    int id = hotbar_block(sc->hotbar);
    const BlockRegistry *b = sc->blocks;
    if (block_is_defined(b, id) && ui->screen == UI_SCREEN_PLAY) {
        char name[BLOCK_NAME_MAX];
        snprintf(name, sizeof name, "%s", b->defs[id].name);
        for (char *c = name; *c; c++) if (*c == '_') *c = ' ';
        UiRect band = {first.x, first.y - 14.0f * s, first.w * HOTBAR_SLOTS, 10.0f * s};
        ui_text_outlined(r, band, s, 0xFFFFFFF0, name);
    }
}

static void ui_draw_picker(GameUi *ui, const UiScene *sc)
{
    Renderer *r = sc->renderer;
    float s = ui_scale(ui, sc);
    int ids[BLOCK_MAX];
    int n = ui_picker_blocks(sc, ids);
    UiRect panel = ui_picker_panel(ui, sc, n);
    renderer_ui_rect(r, 0, 0, (float)sc->drawable_w, (float)sc->drawable_h, 0x00000070);
    renderer_ui_rect(r, panel.x, panel.y, panel.w, panel.h, 0x202530E8);
    ui_frame(r, panel, s, 0x8890A0FF);
    UiRect title = {panel.x, panel.y + 6.0f * s, panel.w, 14.0f * s};
    ui_text_centered(r, title, s * 1.5f, 0xF0F0F0FF, "Blocks");
    float mx = (float)sc->input->mouse_x * ui->pointer_scale, my = (float)sc->input->mouse_y * ui->pointer_scale;
    int hover = -1;
    for (int i = 0; i < n; i++) {
        UiRect q = ui_picker_cell(ui, sc, panel, i);
        bool on = ui_hit(q, mx, my);
        if (on) hover = i;
        renderer_ui_rect(r, q.x + s, q.y + s, q.w - 2.0f * s, q.h - 2.0f * s, on ? 0x60708CFF : 0x30343EFF);
        float pad = (q.w - UI_ICON * s) * 0.5f;
        renderer_ui_block_icon(r, ids[i], q.x + pad, q.y + pad, UI_ICON * s);
    }
    const char *name = hover >= 0 ? sc->blocks->defs[ids[hover]].name : "Click a block to put it in the selected slot";
    char label[96];
    snprintf(label, sizeof label, "%s", name);
    for (char *c = label; *c; c++) if (*c == '_') *c = ' ';
    UiRect below = {panel.x, panel.y + panel.h + 2.0f * s, panel.w, 12.0f * s};
    ui_text_centered(r, below, s, 0xE0E0E0FF, label);
}

static const char *const PAUSE_LABELS[UI_PAUSE_BUTTONS] = {"Resume", "Settings", "Save and quit"};

static void ui_draw_button(GameUi *ui, const UiScene *sc, UiRect q, const char *label)
{
    Renderer *r = sc->renderer;
    float s = ui_scale(ui, sc);
    float mx = (float)sc->input->mouse_x * ui->pointer_scale, my = (float)sc->input->mouse_y * ui->pointer_scale;
    bool on = ui_hit(q, mx, my);
    renderer_ui_rect(r, q.x, q.y, q.w, q.h, on ? 0x5C6C88F0 : 0x3A3F4AF0);
    ui_frame(r, q, s, on ? 0xFFFFFFFF : 0x8890A0FF);
    ui_text_centered(r, q, s * 1.5f, 0xF0F0F0FF, label);
}

static void ui_draw_pause(GameUi *ui, const UiScene *sc)
{
    Renderer *r = sc->renderer;
    float s = ui_scale(ui, sc);
    renderer_ui_rect(r, 0, 0, (float)sc->drawable_w, (float)sc->drawable_h, 0x000000A0);
    UiRect top = ui_button(ui, sc, 0, UI_PAUSE_BUTTONS);
    UiRect title = {0, top.y - 30.0f * s, (float)sc->drawable_w, 16.0f * s};
    ui_text_centered(r, title, s * 2.0f, 0xFFFFFFFF, "Game paused");
    for (int i = 0; i < UI_PAUSE_BUTTONS; i++) ui_draw_button(ui, sc, ui_button(ui, sc, i, UI_PAUSE_BUTTONS), PAUSE_LABELS[i]);
}

/* The settings screen: one row per setting (label, value, < and >), Done at the bottom. */
#define UI_ROW_W 300.0f
#define UI_ROW_H 20.0f
#define UI_ROW_GAP 3.0f

static UiRect ui_settings_row(const GameUi *ui, const UiScene *sc, int row)
{
    float s = ui_scale(ui, sc), w = UI_ROW_W * s, h = UI_ROW_H * s;
    float total = (USER_SETTING_COUNT + 1) * (h + UI_ROW_GAP * s) + 24.0f * s;
    float top = floorf(((float)sc->drawable_h - total) * 0.5f) + 24.0f * s;
    UiRect r = {floorf(((float)sc->drawable_w - w) * 0.5f), top + (float)row * (h + UI_ROW_GAP * s), w, h};
    return r;
}

static UiRect ui_settings_arrow(const GameUi *ui, const UiScene *sc, int row, int side)
{
    UiRect q = ui_settings_row(ui, sc, row);
    float s = ui_scale(ui, sc), b = UI_ROW_H * s;
    UiRect r = {side < 0 ? q.x + q.w * 0.55f : q.x + q.w - b, q.y, b, b};
    return r;
}

static void ui_draw_settings(GameUi *ui, const UiScene *sc)
{
    Renderer *r = sc->renderer;
    float s = ui_scale(ui, sc);
    renderer_ui_rect(r, 0, 0, (float)sc->drawable_w, (float)sc->drawable_h, 0x000000B8);
    UiRect first = ui_settings_row(ui, sc, 0);
    UiRect title = {0, first.y - 24.0f * s, (float)sc->drawable_w, 16.0f * s};
    ui_text_centered(r, title, s * 2.0f, 0xFFFFFFFF, "Settings");
    for (int i = 0; i < USER_SETTING_COUNT; i++) {
        UiRect q = ui_settings_row(ui, sc, i);
        renderer_ui_rect(r, q.x, q.y, q.w, q.h, 0x262B35E0);
        float th = renderer_ui_text_height(r, s * 1.3f);
        renderer_ui_text(r, q.x + 6.0f * s, floorf(q.y + (q.h - th) * 0.5f), s * 1.3f, 0xE8E8E8FF,
                         user_setting_spec((UserSettingId)i)->label);
        UiRect left = ui_settings_arrow(ui, sc, i, -1), right = ui_settings_arrow(ui, sc, i, 1);
        ui_draw_button(ui, sc, left, "<");
        ui_draw_button(ui, sc, right, ">");
        char value[48];
        user_settings_format(&ui->settings, (UserSettingId)i, value, sizeof value);
        UiRect mid = {left.x + left.w, q.y, right.x - left.x - left.w, q.h};
        ui_text_centered(r, mid, s * 1.3f, 0xFFFFFFFF, value);
    }
    UiRect done = ui_settings_row(ui, sc, USER_SETTING_COUNT);
    done.y += 6.0f * s;
    ui_draw_button(ui, sc, done, "Done");
}

/* The world files' notice (game_ui.c): a dark band above the hotbar, as large as fits the width, fading out
 * over its last second. */
static void ui_draw_storage_notice(GameUi *ui, const UiScene *sc)
{
    if (ui->storage_notice_seconds <= 0.0 || !ui->storage_notice[0]) return;
    Renderer *r = sc->renderer;
    float s = ui_scale(ui, sc), scale = 2.0f * s;
    while (scale > s && renderer_ui_text_width(r, scale, ui->storage_notice) > 0.92f * (float)sc->drawable_w)
        scale -= 0.5f * s;
    float alpha = ui->storage_notice_seconds < 1.0 ? (float)ui->storage_notice_seconds : 1.0f;
    float w = renderer_ui_text_width(r, scale, ui->storage_notice) + 12.0f * s;
    float h = renderer_ui_text_height(r, scale) + 8.0f * s;
    UiRect first = ui_hotbar_slot(ui, sc, 0);
    UiRect band = {floorf(((float)sc->drawable_w - w) * 0.5f), floorf(first.y - 24.0f * s - h), w, h};
    renderer_ui_rect(r, band.x, band.y, band.w, band.h, 0x30100000u | (uint32_t)(alpha * 210.0f));
    ui_text_centered(r, band, scale, 0xFFE0A000u | (uint32_t)(alpha * 255.0f), ui->storage_notice);
}

void ui_screens_queue(GameUi *ui, const UiScene *sc)
{
    int win_w = 0, win_h = 0;
    SDL_GetWindowSize(sc->window, &win_w, &win_h);
    ui->pointer_scale = win_w > 0 ? (float)sc->drawable_w / (float)win_w : 1.0f;
    if (ui->screen != UI_SCREEN_SETTINGS && ui->screen != UI_SCREEN_PAUSE) ui_draw_hotbar(ui, sc);
    ui_draw_storage_notice(ui, sc);
    switch (ui->screen) {
    case UI_SCREEN_PICKER: ui_draw_picker(ui, sc); break;
    case UI_SCREEN_PAUSE: ui_draw_pause(ui, sc); break;
    case UI_SCREEN_SETTINGS: ui_draw_settings(ui, sc); break;
    default: break;
    }
}

/* ---- clicks ---- */

UiAction ui_screens_click(const GameUi *ui, const UiScene *sc, int x, int y)
{
    UiAction act = {.kind = UI_ACTION_NONE};
    float mx = (float)x * ui->pointer_scale, my = (float)y * ui->pointer_scale;
    switch (ui->screen) {
    case UI_SCREEN_PICKER: {
        for (int i = 0; i < HOTBAR_SLOTS; i++)
            if (ui_hit(ui_hotbar_slot(ui, sc, i), mx, my)) return (UiAction){.kind = UI_ACTION_SELECT_SLOT, .slot = i};
        int ids[BLOCK_MAX];
        int n = ui_picker_blocks(sc, ids);
        UiRect panel = ui_picker_panel(ui, sc, n);
        for (int i = 0; i < n; i++)
            if (ui_hit(ui_picker_cell(ui, sc, panel, i), mx, my))
                return (UiAction){.kind = UI_ACTION_SET_SLOT, .slot = sc->hotbar->selected, .block = ids[i]};
        /* a click outside closes it */
        if (!ui_hit(panel, mx, my)) return (UiAction){.kind = UI_ACTION_SCREEN, .screen = UI_SCREEN_PLAY};
        return act;
    }
    case UI_SCREEN_PAUSE:
        for (int i = 0; i < UI_PAUSE_BUTTONS; i++) {
            if (!ui_hit(ui_button(ui, sc, i, UI_PAUSE_BUTTONS), mx, my)) continue;
            if (i == 0) return (UiAction){.kind = UI_ACTION_SCREEN, .screen = UI_SCREEN_PLAY};
            if (i == 1) return (UiAction){.kind = UI_ACTION_SCREEN, .screen = UI_SCREEN_SETTINGS};
            return (UiAction){.kind = UI_ACTION_QUIT}; /* app_run saves on the way out */
        }
        return act;
    case UI_SCREEN_SETTINGS: {
        UiRect done = ui_settings_row(ui, sc, USER_SETTING_COUNT);
        done.y += 6.0f * ui_scale(ui, sc);
        if (ui_hit(done, mx, my)) return (UiAction){.kind = UI_ACTION_SCREEN, .screen = UI_SCREEN_PAUSE};
        for (int i = 0; i < USER_SETTING_COUNT; i++)
            for (int side = -1; side <= 1; side += 2) {
                if (!ui_hit(ui_settings_arrow(ui, sc, i, side), mx, my)) continue;
                UserSettings next = ui->settings;
                user_settings_step(&next, (UserSettingId)i, side);
                return (UiAction){.kind = UI_ACTION_SETTING, .setting = (UserSettingId)i, .value = next.values[i]};
            }
        return act;
    }
    default:
        return act;
    }
}
