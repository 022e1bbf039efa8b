/* daytime.c — time of day, light intensity and the stepped sky light.
 *
 * Design: intensity is a pure function of the time of day, and the terrain's sky light is that intensity
 * quantised to six levels (index round(5 * intensity)), so the game calls updater_set_sky_light only
 * when the level actually changes: ten relights per day instead of one per frame. */
#include "daytime.h"

#include <math.h>
#include <stdio.h>

static const int SKY_LIGHT_STEPS[6] = {3, 5, 8, 10, 13, 15};

float daytime_wrap(double t)
{
    double w = t - floor(t);
    if (w >= 1.0) w = 0.0;
    return (float)w;
}

float daytime_advance(float t, double seconds)
{
    return daytime_wrap((double)t + seconds / DAYTIME_DAY_SECONDS);
}

float daytime_light_intensity(float t)
{
    t = daytime_wrap(t);
    if (t >= 0.3f && t <= 0.7f) return 1.0f;
    if (t > 0.2f && t < 0.3f) return (t - 0.2f) / 0.1f;
    if (t > 0.7f && t < 0.8f) return 1.0f - (t - 0.7f) / 0.1f;
    return 0.0f;
}

int daytime_sky_light(float t)
{
    int i = (int)lroundf(daytime_light_intensity(t) * 5.0f);
    if (i < 0) i = 0;
    if (i > 5) i = 5;
    return SKY_LIGHT_STEPS[i];
}

void daytime_format_clock(float t, char *out, unsigned size)
{
    int minutes = (int)(daytime_wrap(t) * 24.0f * 60.0f);
    if (minutes >= 24 * 60) minutes = 24 * 60 - 1;
    snprintf(out, size, "%02d:%02d", minutes / 60, minutes % 60);
}
