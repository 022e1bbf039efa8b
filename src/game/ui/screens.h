/* screens.h — the hotbar, the block picker, the pause menu and the settings screen, drawn over the world,
 * and what a click on them asks for.
 *
 * queue: this frame's UI quads (before the draw). click: a left click at window pixel (x, y) on the open
 * screen; the screens change nothing themselves: the UiAction says what the click asked for and the app does
 * it (select a slot, put a block in a slot, open a screen, quit, change a setting). Threads: main thread. */
#ifndef STRATA_GAME_SCREENS_H
#define STRATA_GAME_SCREENS_H

#include <SDL.h>

#include "hotbar.h"
#include "input.h"
#include "ui/game_ui.h"
#include "strata/block.h"
#include "strata/render.h"

typedef enum UiActionKind {
    UI_ACTION_NONE = 0,
    UI_ACTION_SELECT_SLOT,        /* slot */
    UI_ACTION_SET_SLOT,           /* slot, block */
    UI_ACTION_SCREEN,             /* screen */
    UI_ACTION_QUIT,               /* save and quit */
    UI_ACTION_SETTING,            /* setting, value */
} UiActionKind;

typedef struct UiAction {
    UiActionKind kind;
    int slot, block;
    UiScreen screen;
    UserSettingId setting;
    double value;
} UiAction;

/* What the screens draw from. */
typedef struct UiScene {
    Renderer *renderer;
    SDL_Window *window;
    int drawable_w, drawable_h;
    const BlockRegistry *blocks;
    const Hotbar *hotbar;
    const InputState *input;
} UiScene;

void ui_screens_queue(GameUi *ui, const UiScene *scene);
UiAction ui_screens_click(const GameUi *ui, const UiScene *scene, int x, int y);

#endif
