/* input.h — keyboard and mouse into a per-frame InputState.
 *
 * Held keys (WASD, Space, Shift/C) are tracked by scancode, so the layout does not matter; one-shot actions
 * (dig, place, toggles, hotbar) are set by the frame's events and cleared by input_begin_frame. Mouse
 * motion accumulates while the mouse is captured (relative mode). Escape frees the mouse; a click captures
 * it again (that click does not dig). Threads: main thread (SDL). */
#ifndef STRATA_GAME_INPUT_H
#define STRATA_GAME_INPUT_H

#include <stdbool.h>
#include <SDL.h>

#include "player.h"

#define INPUT_MOUSE_DEG_PER_PIXEL 0.15f

typedef struct InputState {
    /* held */
    bool forward, back, left, right, up, down;
    bool mouse_captured;
    /* this frame */
    float look_dx, look_dy;      /* mouse motion, pixels */
    bool dig, place, toggle_fly, toggle_hud, advance_time, quit, resized;
    bool cycle_brightness, cycle_season;  /* B, N */
    int select_slot;             /* 1..9 pressed this frame, or 0 */
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
