/* erosion.h — thermal and droplet hydraulic erosion of a Heightfield (SparkEngine's, seed 001).
 *
 * Thermal: each pass computes, from the previous grid (two buffers, so the result does not depend on
 * scan order), the slope to all 8 neighbours and moves TransportRate x (slope - TalusAngle) of height to
 * each neighbour past the talus angle (slope in height per world unit, scaled back to height by the
 * neighbour distance, so an orthogonal neighbour at spacing 1 gets exactly the seed's amount); a cell
 * gives away at most TransportRate x its largest excess and half its largest drop per pass (Olsen's cap:
 * without it 8 neighbours overshoot and the map oscillates). Mass is conserved.
 * Hydraulic: Beyer's droplet model, the seed's ten steps (see erosion.c), erosion over a radius brush.
 * Both are deterministic: the same input, parameters and seed give bit-identical output.
 * Ownership: the caller owns the heightfield, modified in place; scratch memory is allocated per call.
 * Thread safety: reentrant; one heightfield per call (no sharing while eroding). */
#ifndef STRATA_EROSION_H
#define STRATA_EROSION_H

#include <stdint.h>
#include "strata/error.h"
#include "strata/heightfield.h"

/* Called now and then with the fraction done (0..1); for progress bars. May be NULL. */
typedef void (*ErosionProgressFn)(void *user, double fraction);

typedef struct ThermalErosionParams {
    float talus_angle;     /* TalusAngle, degrees (0..89.9); default 35 */
    float transport_rate;  /* TransportRate, 0..1; default 0.5 */
    int iterations;        /* Iterations (passes), default 50 */
    ErosionProgressFn progress;
    void *progress_user;
} ThermalErosionParams;

typedef struct ThermalErosionStats {
    double moved;              /* total height moved over all passes */
    float last_pass_max_transfer;  /* largest height one cell gave away in the last pass */
} ThermalErosionStats;

typedef struct HydraulicErosionParams {
    int num_droplets;          /* NumDroplets, default 200000 */
    float inertia;             /* Inertia 0..1, default 0.05 */
    float sediment_capacity;   /* SedimentCapacity factor, default 4 */
    float min_slope;           /* MinSlope (minimum capacity slope), default 0.01 */
    float erosion_rate;        /* ErosionRate 0..1, default 0.3 */
    float deposition_rate;     /* DepositionRate 0..1, default 0.3 */
    float evaporation_rate;    /* EvaporationRate 0..1, default 0.01 */
    int max_lifetime;          /* MaxLifetime (steps), default 30 */
    int erosion_radius;        /* brush radius in samples 1..8, default 3 */
    float gravity;             /* default 4 */
    float initial_water;       /* W at spawn, default 1 */
    float initial_speed;       /* default 1 */
    uint64_t seed;             /* droplet spawn positions */
    ErosionProgressFn progress;
    void *progress_user;
} HydraulicErosionParams;

typedef struct HydraulicErosionStats {
    double eroded;       /* height taken from the map */
    double deposited;    /* height given back */
    double carried_away; /* sediment still in droplets when they died or left the map (= eroded - deposited) */
    long steps;          /* droplet steps simulated */
} HydraulicErosionStats;

void erosion_thermal_defaults(ThermalErosionParams *p);
void erosion_hydraulic_defaults(HydraulicErosionParams *p);

/* In place. ST_ERR_ARG for parameters out of range, ST_ERR_NOMEM. stats may be NULL. */
StResult erosion_thermal(Heightfield *hf, const ThermalErosionParams *p, ThermalErosionStats *stats);
StResult erosion_hydraulic(Heightfield *hf, const HydraulicErosionParams *p, HydraulicErosionStats *stats);

#endif
