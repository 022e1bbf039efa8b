/* bench_flight.h — strata-bench --flight: the game's frame benchmarks run through the real game binary
 * (bench_flight.c): the scripted flight (strata --bench-flight) and the frame rate standing at seed 42's
 * spawn with and without far terrain (strata --bench-frames).
 * Ownership: nothing to free. Threads: main thread of strata-bench (forks and waits for the game). */
#ifndef STRATA_TOOLS_BENCH_FLIGHT_H
#define STRATA_TOOLS_BENCH_FLIGHT_H

#include <stdbool.h>
#include <stdio.h>

typedef struct BenchFlightResults {
    /* the flight: seed 1, 20 blocks/s, 30 s, 1280x720, view distance 8, far terrain 2048 (the game's defaults) */
    double frame_ms_p50, frame_ms_p95, frame_ms_p99, frame_ms_max, frames_over_100ms;
    double main_cpu_ms_p50, draw_calls_p50, chunk_draws_p50, triangles_p50, backlog_max, holes_max;
    /* standing at seed 42's spawn, view distance 8, 10 s: mean frames per second, without and with 2 km of far
     * terrain */
    double fps_spawn_vd8, fps_spawn_vd8_far2k;
} BenchFlightResults;

/* Every figure -1 (not measured). */
void bench_flight_unmeasured(BenchFlightResults *r);
/* Runs the game beside strata-bench; figures of a run that fails stay -1 (with a warning on stderr). False
 * when the flight itself could not be measured. */
bool bench_flight_run(BenchFlightResults *r);
void bench_flight_print_json(FILE *f, const BenchFlightResults *r);   /* ", \"key\": value" pairs */
void bench_flight_print_table(FILE *f, const BenchFlightResults *r);

#endif
