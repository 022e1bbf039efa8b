/* input.c — SDL events to InputState. Design: the rest of the game never sees an SDL_Event; it reads
 * booleans and deltas, which also lets the script player drive the same PlayerInput. Key repeats are
 * ignored so a held F toggles flying once. Held buttons (dig_held, place_held) let the app repeat digging
 * and placing at a steady rate. */
#include "input.h"

#include <string.h>

void input_init(InputState *input)
{
    memset(input, 0, sizeof *input);
}

void input_begin_frame(InputState *input)
{
    input->look_dx = input->look_dy = 0.0f;
    input->dig = input->place = input->toggle_fly = input->toggle_hud = false;
    input->advance_time = input->quit = input->resized = false;
    input->cycle_brightness = input->cycle_season = false;
    input->select_slot = 0;
    input->wheel = 0;
    input->pick = input->escape = input->toggle_picker = input->ui_click = false;
    input->screenshot = input->toggle_fullscreen = false;
    input->undo = input->redo = input->next_tool = false;
    input->radius_delta = 0;
}

void input_set_captured(InputState *input, bool captured)
{
    /* Some video drivers (offscreen) have no relative mode: then the mouse simply stays free. */
    if (SDL_SetRelativeMouseMode(captured ? SDL_TRUE : SDL_FALSE) != 0) captured = false;
    input->mouse_captured = captured;
}

static void set_key(InputState *in, SDL_Scancode sc, bool down)
{
    switch (sc) {
    case SDL_SCANCODE_W: case SDL_SCANCODE_UP:
        in->forward = down;
        if (!down) in->sprint_tap = false;
        break;
    case SDL_SCANCODE_LCTRL: case SDL_SCANCODE_RCTRL: in->sprint_key = down; break;
    case SDL_SCANCODE_S: case SDL_SCANCODE_DOWN: in->back = down; break;
    case SDL_SCANCODE_A: case SDL_SCANCODE_LEFT: in->left = down; break;
    case SDL_SCANCODE_D: case SDL_SCANCODE_RIGHT: in->right = down; break;
    case SDL_SCANCODE_SPACE: in->up = down; break;
    case SDL_SCANCODE_LSHIFT: case SDL_SCANCODE_RSHIFT: case SDL_SCANCODE_C: in->down = down; break;
    default: break;
    }
}

void input_handle_event(InputState *in, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT:
        in->quit = true;
        break;
    case SDL_KEYDOWN: {
        SDL_Scancode sc = e->key.keysym.scancode;
        set_key(in, sc, true);
        if (e->key.repeat) break;
        if (sc == SDL_SCANCODE_W) {
            Uint32 now = e->key.timestamp;
            if (in->w_pressed_ms && now - in->w_pressed_ms <= INPUT_DOUBLE_TAP_MS) in->sprint_tap = true;
            in->w_pressed_ms = now;
        }
        bool ctrl = (e->key.keysym.mod & KMOD_CTRL) != 0;
        if (ctrl && sc == SDL_SCANCODE_Z) {
            if (e->key.keysym.mod & KMOD_SHIFT) in->redo = true;
            else in->undo = true;
        } else if (ctrl && sc == SDL_SCANCODE_Y) in->redo = true;
        else if (sc == SDL_SCANCODE_TAB) in->next_tool = true;
        else if (sc == SDL_SCANCODE_LEFTBRACKET) in->radius_delta--;
        else if (sc == SDL_SCANCODE_RIGHTBRACKET) in->radius_delta++;
        else if (sc == SDL_SCANCODE_ESCAPE) in->escape = true;
        else if (sc == SDL_SCANCODE_E) in->toggle_picker = true;
        else if (sc == SDL_SCANCODE_F2) in->screenshot = true;
        else if (sc == SDL_SCANCODE_F11) in->toggle_fullscreen = true;
        else if (sc == SDL_SCANCODE_F) in->toggle_fly = true;
        else if (sc == SDL_SCANCODE_F3) in->toggle_hud = true;
        else if (sc == SDL_SCANCODE_T) in->advance_time = true;
        else if (sc == SDL_SCANCODE_B) in->cycle_brightness = true;
        else if (sc == SDL_SCANCODE_N) in->cycle_season = true;
        else if (sc >= SDL_SCANCODE_1 && sc <= SDL_SCANCODE_9) in->select_slot = (int)(sc - SDL_SCANCODE_1) + 1;
        break;
    }
    case SDL_KEYUP:
        set_key(in, e->key.keysym.scancode, false);
        break;
    case SDL_MOUSEMOTION:
        in->mouse_x = e->motion.x;
        in->mouse_y = e->motion.y;
        if (in->mouse_captured) {
            in->look_dx += (float)e->motion.xrel;
            in->look_dy += (float)e->motion.yrel;
        }
        break;
    case SDL_MOUSEBUTTONDOWN:
        in->mouse_x = e->button.x;
        in->mouse_y = e->button.y;
        if (in->ui_open) {
            if (e->button.button == SDL_BUTTON_LEFT) in->ui_click = true;
            break;
        }
        if (!in->mouse_captured) {
            input_set_captured(in, true);
            break;
        }
        if (e->button.button == SDL_BUTTON_LEFT) in->dig = in->dig_held = true;
        else if (e->button.button == SDL_BUTTON_RIGHT) in->place = in->place_held = true;
        else if (e->button.button == SDL_BUTTON_MIDDLE) in->pick = true;
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT) in->dig_held = false;
        else if (e->button.button == SDL_BUTTON_RIGHT) in->place_held = false;
        break;
    case SDL_MOUSEWHEEL: {
        int steps = e->wheel.y;
        if (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED) steps = -steps;
        /* Ctrl+wheel sizes the editing tool; the wheel alone walks the hotbar (up, away from the player: the
         * previous slot, as in Minecraft). */
        if (SDL_GetModState() & KMOD_CTRL) in->radius_delta += steps > 0 ? 1 : steps < 0 ? -1 : 0;
        else in->wheel -= steps;
        break;
    }
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) in->resized = true;
        else if (e->window.event == SDL_WINDOWEVENT_FOCUS_LOST) {
            input_set_captured(in, false);
            in->forward = in->back = in->left = in->right = in->up = in->down = false;
            in->dig_held = in->place_held = false;
            in->sprint_key = in->sprint_tap = false;
        }
        break;
    default:
        break;
    }
}

static float clamp1(float v)
{
    return v < -1.0f ? -1.0f : v > 1.0f ? 1.0f : v;
}

void input_add_player_input(const InputState *in, PlayerInput *out)
{
    out->forward = clamp1(out->forward + (in->forward ? 1.0f : 0.0f) - (in->back ? 1.0f : 0.0f));
    out->right = clamp1(out->right + (in->right ? 1.0f : 0.0f) - (in->left ? 1.0f : 0.0f));
    out->up = clamp1(out->up + (in->up ? 1.0f : 0.0f) - (in->down ? 1.0f : 0.0f));
    if (in->up) out->jump = true;
    if (in->sprint_key || in->sprint_tap) out->sprint = true;
}
