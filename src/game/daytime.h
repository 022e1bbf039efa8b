/* daytime.h — the time of day and the sky light it gives.
 *
 * Time of day runs 0..1 (0 midnight, 0.25 dawn, 0.5 noon, 0.75 dusk); a full day lasts
 * DAYTIME_DAY_SECONDS of game time. Light intensity is 0 at night, 1 by day, with linear dawn (0.2..0.3)
 * and dusk (0.7..0.8) ramps as in Survivalcraft's sky subsystem; the sky light baked into the terrain
 * takes Survivalcraft's steps {3,5,8,10,13,15}, so it changes only a few times a day (each change
 * relights every loaded chunk). Pure functions; any thread. */
#ifndef STRATA_GAME_DAYTIME_H
#define STRATA_GAME_DAYTIME_H

#define DAYTIME_DAY_SECONDS 1200.0   /* 20 minutes */
#define DAYTIME_START 0.375f         /* a morning start for new worlds */
#define DAYTIME_STEP (1.0f / 24.0f)  /* the T key: one hour */

/* Wraps into [0, 1). */
float daytime_wrap(double time_of_day);
/* Advances by `seconds` of game time. */
float daytime_advance(float time_of_day, double seconds);
/* Sky light intensity 0..1. */
float daytime_light_intensity(float time_of_day);
/* Sky light level for the terrain: one of {3,5,8,10,13,15}. */
int daytime_sky_light(float time_of_day);
/* "HH:MM" into out (at least 6 bytes). */
void daytime_format_clock(float time_of_day, char *out, unsigned size);

#endif
