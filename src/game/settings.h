/* settings.h — the player's look settings: brightness (0..1, lifts the darkest light levels through the
 * mesher's brightness curve) and season (tints grass, leaves and water). Both are baked into the chunk
 * vertices, so a change remeshes every chunk (updater_set_brightness / updater_set_season).
 *
 * Pure (no SDL, no GL): names, parsing and the key cycles, shared by the command line, scripts and keys.
 * Threads: any. */
#ifndef STRATA_GAME_SETTINGS_H
#define STRATA_GAME_SETTINGS_H

#include "strata/mesher.h"

#define SETTINGS_BRIGHTNESS_DEFAULT 0.5f
#define SETTINGS_SEASON_DEFAULT MESHER_SEASON_SUMMER
#define SETTINGS_BRIGHTNESS_STEPS 5   /* the B key: 0, 0.25, 0.5, 0.75, 1 */

/* MESHER_SEASON_* for "spring", "summer", "autumn", "winter" (exact, lower case), or -1. */
int settings_season_parse(const char *name);
/* The season's name, or "?" outside MESHER_SEASON_SPRING..WINTER. */
const char *settings_season_name(int season);
/* "spring|summer|autumn|winter" (for messages and usage). */
const char *settings_season_choices(void);
/* The next season in the year (winter -> spring). */
int settings_season_next(int season);
/* The next step of the brightness cycle after `brightness` (0 -> 0.25 -> ... -> 1 -> 0); a value between
 * steps goes to the next step above it. */
float settings_brightness_next(float brightness);

#endif
