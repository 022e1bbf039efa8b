/* settings.c — brightness and season: names, parsing and the cycles the B and N keys step through.
 * Design: one table of season names indexed by MESHER_SEASON_*, so the command line, the script parser,
 * the HUD and the keys agree on spelling and order. */
#include "settings.h"

#include <string.h>

static const char *const SEASON_NAMES[] = {"spring", "summer", "autumn", "winter"};
#define SEASON_COUNT ((int)(sizeof SEASON_NAMES / sizeof SEASON_NAMES[0]))

_Static_assert(MESHER_SEASON_SPRING == 0 && MESHER_SEASON_SUMMER == 1 && MESHER_SEASON_AUTUMN == 2 &&
                   MESHER_SEASON_WINTER == 3,
               "SEASON_NAMES follows the order of MESHER_SEASON_*");

int settings_season_parse(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < SEASON_COUNT; i++)
        if (!strcmp(name, SEASON_NAMES[i])) return i;
    return -1;
}

const char *settings_season_name(int season)
{
    return season >= 0 && season < SEASON_COUNT ? SEASON_NAMES[season] : "?";
}

const char *settings_season_choices(void)
{
    return "spring|summer|autumn|winter";
}

int settings_season_next(int season)
{
    if (season < 0 || season >= SEASON_COUNT - 1) return MESHER_SEASON_SPRING;
    return season + 1;
}

float settings_brightness_next(float brightness)
{
    const float step = 1.0f / (float)(SETTINGS_BRIGHTNESS_STEPS - 1);
    for (int i = 0; i < SETTINGS_BRIGHTNESS_STEPS; i++) {
        float level = (float)i * step;
        if (level > brightness + 1e-4f) return level;
    }
    return 0.0f;
}
