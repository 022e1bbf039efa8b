/* game_bench.h — the game's benchmark modes, --bench-flight and --bench-frames: wait for the world, then
 * measure every frame for opts.bench_seconds while flying a fixed path (or standing still), and report.
 *
 * create: *out stays NULL without opts.bench (ST_ERR_NOMEM otherwise). before_frame (after the script's place
 * in the loop, before physics): waits for the world, then places the camera; after_frame (after the swap):
 * records the frame; true when the run is over (the app quits). report: the summary on stdout and the JSON
 * (--json), ST_ERR_STATE when no frame was measured, ST_ERR_IO when the file fails. Threads: main thread. */
#ifndef STRATA_GAME_BENCH_H
#define STRATA_GAME_BENCH_H

#include <stdbool.h>

#include "cli.h"
#include "player.h"
#include "session/world_session.h"
#include "strata/error.h"
#include "strata/render.h"
#include "view/game_view.h"

typedef struct GameBench GameBench;

/* What the benchmark reads and moves: the world, the player (the camera), the view (its size, the
 * renderer, the --screenshot frame) and the vertical field of view in degrees. */
typedef struct BenchScene {
    WorldSession *world;
    Player *player;
    GameView *view;
    const CliOptions *opts;
    double fov_deg;
} BenchScene;

StResult game_bench_create(const CliOptions *opts, int width, int height, GameBench **out);
void game_bench_before_frame(GameBench *b, const BenchScene *scene, double real_dt);
bool game_bench_after_frame(GameBench *b, const BenchScene *scene);
StResult game_bench_report(const GameBench *b, const BenchScene *scene);
void game_bench_destroy(GameBench *b);   /* NULL ok */

#endif
