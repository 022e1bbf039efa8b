/* test_input.c — SDL events into InputState: held movement keys by scancode, one-shot actions cleared each
 * frame, key repeats ignored for toggles, hotbar digits, mouse buttons (a click while the mouse is free
 * captures it instead of digging), and the PlayerInput the keys give. No window is needed. */
#include <SDL.h>

#include "check.h"
#include "input.h"

static SDL_Event key(Uint32 type, SDL_Scancode sc, int repeat)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.key.keysym.scancode = sc;
    e.key.repeat = (Uint8)repeat;
    return e;
}

static void test_keys(void)
{
    InputState in;
    input_init(&in);
    SDL_Event e = key(SDL_KEYDOWN, SDL_SCANCODE_W, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_D, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_SPACE, 0);
    input_handle_event(&in, &e);
    CHECK(in.forward && in.right && in.up && !in.back && !in.left && !in.down);
    PlayerInput p = {0};
    input_add_player_input(&in, &p);
    CHECK_NEAR(p.forward, 1.0, 0);
    CHECK_NEAR(p.right, 1.0, 0);
    CHECK_NEAR(p.up, 1.0, 0);
    CHECK(p.jump);
    e = key(SDL_KEYUP, SDL_SCANCODE_W, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_S, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYUP, SDL_SCANCODE_SPACE, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_LSHIFT, 0);
    input_handle_event(&in, &e);
    PlayerInput q = {.forward = 0.5f};
    input_add_player_input(&in, &q); /* script input plus keys, clamped */
    CHECK_NEAR(q.forward, -0.5, 1e-6);
    CHECK_NEAR(q.up, -1.0, 0);
    CHECK(!q.jump);
    /* Held keys survive a new frame; one-shots do not. */
    e = key(SDL_KEYDOWN, SDL_SCANCODE_F, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_F3, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_T, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_7, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_B, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_N, 0);
    input_handle_event(&in, &e);
    CHECK(in.toggle_fly && in.toggle_hud && in.advance_time && in.cycle_brightness && in.cycle_season);
    CHECK_EQ_INT(in.select_slot, 7);
    input_begin_frame(&in);
    CHECK(!in.toggle_fly && !in.toggle_hud && !in.advance_time && !in.cycle_brightness && !in.cycle_season);
    CHECK_EQ_INT(in.select_slot, 0);
    CHECK(in.back && in.down);
    /* A repeated F (held key) does not toggle again. */
    e = key(SDL_KEYDOWN, SDL_SCANCODE_F, 1);
    input_handle_event(&in, &e);
    CHECK(!in.toggle_fly);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_B, 1); /* a held B does not cycle again */
    input_handle_event(&in, &e);
    CHECK(!in.cycle_brightness);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_1, 0);
    input_handle_event(&in, &e);
    CHECK_EQ_INT(in.select_slot, 1);
}

static void test_mouse_and_window(void)
{
    InputState in;
    input_init(&in);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.xrel = 10;
    e.motion.yrel = -4;
    input_handle_event(&in, &e);
    CHECK_NEAR(in.look_dx, 0.0, 0); /* the mouse is free: no look */
    in.mouse_captured = true;        /* as if relative mode were on */
    input_handle_event(&in, &e);
    input_handle_event(&in, &e);
    CHECK_NEAR(in.look_dx, 20.0, 0);
    CHECK_NEAR(in.look_dy, -8.0, 0);
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    input_handle_event(&in, &e);
    e.button.button = SDL_BUTTON_RIGHT;
    input_handle_event(&in, &e);
    CHECK(in.dig && in.place);
    input_begin_frame(&in);
    CHECK(!in.dig && !in.place);
    CHECK_NEAR(in.look_dx, 0.0, 0);
    /* With the mouse free, a click does not dig (it asks for capture). */
    in.mouse_captured = false;
    e.button.button = SDL_BUTTON_LEFT;
    input_handle_event(&in, &e);
    CHECK(!in.dig);
    memset(&e, 0, sizeof e);
    e.type = SDL_WINDOWEVENT;
    e.window.event = SDL_WINDOWEVENT_SIZE_CHANGED;
    input_handle_event(&in, &e);
    CHECK(in.resized);
    e.type = SDL_QUIT;
    input_handle_event(&in, &e);
    CHECK(in.quit);
}

/* The hotbar and menu inputs: wheel steps, middle click, held buttons, Escape and E as one-shots, and
 * clicks that go to an open menu instead of digging or capturing. */
static void test_hotbar_and_menus(void)
{
    InputState in;
    input_init(&in);
    in.mouse_captured = true;
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.y = -2; /* towards the player: the next slots */
    input_handle_event(&in, &e);
    CHECK_EQ_INT(in.wheel, 2);
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_MIDDLE;
    input_handle_event(&in, &e);
    CHECK(in.pick && !in.dig);
    e.button.button = SDL_BUTTON_LEFT;
    input_handle_event(&in, &e);
    CHECK(in.dig && in.dig_held);
    input_begin_frame(&in);
    CHECK(!in.dig && in.dig_held && in.wheel == 0 && !in.pick); /* held survives the frame */
    e.type = SDL_MOUSEBUTTONUP;
    input_handle_event(&in, &e);
    CHECK(!in.dig_held);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_ESCAPE, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_E, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_F2, 0);
    input_handle_event(&in, &e);
    CHECK(in.escape && in.toggle_picker && in.screenshot);
    input_begin_frame(&in);
    CHECK(!in.escape && !in.toggle_picker && !in.screenshot);
    /* A menu is open: a left click is a UI click at the pointer, never a dig. */
    in.ui_open = true;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = 120;
    e.button.y = 45;
    input_handle_event(&in, &e);
    CHECK(in.ui_click && !in.dig && !in.dig_held);
    CHECK_EQ_INT(in.mouse_x, 120);
    CHECK_EQ_INT(in.mouse_y, 45);
    /* Sprint: Ctrl held, or W tapped twice within INPUT_DOUBLE_TAP_MS (until W is released). */
    PlayerInput pin = {0};
    e = key(SDL_KEYDOWN, SDL_SCANCODE_W, 0);
    e.key.timestamp = 1000;
    input_handle_event(&in, &e);
    input_add_player_input(&in, &pin);
    CHECK(!pin.sprint);
    e = key(SDL_KEYUP, SDL_SCANCODE_W, 0);
    input_handle_event(&in, &e);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_W, 0);
    e.key.timestamp = 1200;
    input_handle_event(&in, &e);
    input_add_player_input(&in, &pin);
    CHECK(pin.sprint);
    e = key(SDL_KEYUP, SDL_SCANCODE_W, 0);
    input_handle_event(&in, &e);
    PlayerInput walk = {0};
    input_add_player_input(&in, &walk);
    CHECK(!walk.sprint);
    e = key(SDL_KEYDOWN, SDL_SCANCODE_LCTRL, 0);
    input_handle_event(&in, &e);
    input_add_player_input(&in, &walk);
    CHECK(walk.sprint);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    RUN(test_keys);
    RUN(test_mouse_and_window);
    RUN(test_hotbar_and_menus);
    return check_report();
}
