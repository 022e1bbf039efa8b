/* input.h — keyboard and mouse into a per-frame InputState.
 *
 * Held keys (WASD, Space, Shift/C) are tracked by scancode, so the layout does not matter; one-shot actions
 * (dig, place, toggles, hotbar) are set by the frame's events and cleared by input_begin_frame. Mouse
 * motion accumulates while the mouse is captured (relative mode). Escape asks for the pause menu (the app
 * frees the mouse); while a menu is open (ui_open) clicks go to it; otherwise a click on a free mouse
 * captures it again (that click does not dig). Threads: main thread (SDL). */
#ifndef STRATA_GAME_INPUT_H
#define STRATA_GAME_INPUT_H

#include <stdbool.h>
#include <SDL.h>

#include "player.h"

#define INPUT_MOUSE_DEG_PER_PIXEL 0.15f
#define INPUT_DOUBLE_TAP_MS 300      /* W twice within this: sprint */

typedef struct InputState {
    /* held */
    bool forward, back, left, right, up, down;
    bool mouse_captured;
    bool sprint_key;             /* Ctrl held */
    bool sprint_tap;             /* W was double-tapped and is still held */
    Uint32 w_pressed_ms;         /* when W was last pressed (SDL ticks) */
    bool dig_held, place_held;   /* left / right button down while playing (repeat digging and placing) */
    bool ui_open;                /* set by the app: a menu or the picker is up, clicks go to it */
    int mouse_x, mouse_y;        /* pointer position in window pixels (while free) */
    /* this frame */
    float look_dx, look_dy;      /* mouse motion, pixels */
    bool dig, place, toggle_fly, toggle_hud, advance_time, quit, resized;
    bool cycle_brightness, cycle_season;  /* B, N */
    int select_slot;             /* 1..9 pressed this frame, or 0 */
    int wheel;                   /* wheel steps this frame: positive = the next slot (scrolled down) */
    bool pick;                   /* middle click while playing */
    bool escape;                 /* Escape: the pause menu opens or closes (the app decides) */
    bool toggle_picker;          /* E or Tab */
    bool ui_click;               /* left click while ui_open, at mouse_x, mouse_y */
    bool screenshot, toggle_fullscreen; /* F2, F11 */
    bool undo, redo;             /* Ctrl+Z, Ctrl+Y (or Ctrl+Shift+Z) */
    bool next_tool;              /* Tab */
    int radius_delta;            /* mouse wheel, [ and ] */
} InputState;

void input_init(InputState *input);
/* Clears the one-shot fields and mouse motion. */
void input_begin_frame(InputState *input);
void input_handle_event(InputState *input, const SDL_Event *event);
/* Captures (relative mouse mode) or frees the mouse. */
void input_set_captured(InputState *input, bool captured);
/* Adds the held keys to a PlayerInput (clamped to -1..1). */
void input_add_player_input(const InputState *input, PlayerInput *out);

#endif
