/* bench_game.h — strata-bench's figures measured through the real game binary (bench_game.c).
 * Ownership: nothing to free. Threads: main thread of strata-bench (forks and waits for the game). */
#ifndef STRATA_TOOLS_BENCH_GAME_H
#define STRATA_TOOLS_BENCH_GAME_H

#include <stddef.h>

/* Median launch-to-ready in milliseconds of the game beside strata-bench (offscreen, 1280x720, unsaved world
 * of `seed`, `view_distance` chunks), or -1 when the game is missing or cannot start. */
double bench_game_ready_ms(unsigned long long seed, int view_distance);
/* The strata executable beside this one (strata-bench), or "" when /proc/self/exe cannot be read. */
void bench_game_binary(char *out, size_t size);

#endif
