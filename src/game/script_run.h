/* script_run.h — playing a parsed script (script.h), frame by frame: the scripted player.
 *
 * script_runner_frame runs the script's commands for this frame through a table of handlers (one per
 * ScriptOp), adding movement to *input. Returns ST_OK, or an error (wait_ready cap, a screenshot that could
 * not be written) that ends the run with exit code 1. It drives the whole game, so it takes the App.
 * Threads: main thread. */
#ifndef STRATA_GAME_SCRIPT_RUN_H
#define STRATA_GAME_SCRIPT_RUN_H

#include <stdbool.h>

#include "player.h"
#include "strata/error.h"

#define SCRIPT_READY_FRAME_CAP 20000L   /* wait_ready and the settling after an edit give up after this many frames */
/* dig_visible_within keeps watching this many frames past its limit, to report how late the dig showed. */
#define SCRIPT_PROBE_EXTRA_FRAMES 600L

typedef struct App App;

typedef struct ScriptRunner {
    bool active;                  /* a script is loaded and not finished */
    int pc;                       /* next command */
    long counter;                 /* frames spent in the current command */
    bool settle;                  /* after dig/place: wait until the world is ready again */
    long settle_frames;
    int probe_phase;              /* dig_visible_within: 0 start, 1 reference read, 2 dug and watching */
    long probe_frame;             /* frames rendered since the frame of the dig (that one is 0) */
    long probe_ready_frame;       /* the first of them that began with the world ready (worker done), or -1 */
} ScriptRunner;

StResult script_runner_frame(App *app, PlayerInput *input);

#endif
