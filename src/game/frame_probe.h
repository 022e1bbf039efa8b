/* frame_probe.h — did the picture change? Compares the pixels of a box around the crosshair between two
 * frames; the `dig_visible_within` script command uses it to count the frames between a dig and the first
 * frame that shows the new geometry.
 *
 * A box "differs notably" when at least FRAME_PROBE_MIN_PERCENT of its pixels differ by more than
 * FRAME_PROBE_CHANNEL_DELTA in some colour channel: a single changed texel, dithering or rounding does not
 * count; a block turning into a hole (a quarter of the box or more) does. Pure (no GL); any thread. */
#ifndef STRATA_GAME_FRAME_PROBE_H
#define STRATA_GAME_FRAME_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#define FRAME_PROBE_CHANNEL_DELTA 24
#define FRAME_PROBE_MIN_PERCENT 2.0
#define FRAME_PROBE_MIN_SIDE 16

/* The square box centred on the crosshair of a width x height framebuffer: side = max(MIN_SIDE,
 * min(width, height) / 6), clipped to the framebuffer. x, y from the top-left corner. */
void frame_probe_box(int width, int height, int *x, int *y, int *w, int *h);
/* Pixels (RGBA, 4 bytes each) that differ by more than `channel_delta` in R, G or B. */
int frame_probe_count_differing(const uint8_t *a, const uint8_t *b, int pixels, int channel_delta);
/* The notable-change rule above, for `differing` of `pixels`. */
bool frame_probe_is_notable(int differing, int pixels);

#endif
