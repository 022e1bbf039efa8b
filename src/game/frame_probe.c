/* frame_probe.c — the pixel comparison behind dig_visible_within. Design: a per-pixel threshold on the
 * largest channel difference, then a share of the box; alpha is ignored (the back buffer's alpha means
 * nothing on screen). */
#include "frame_probe.h"

#include <stdlib.h>

void frame_probe_box(int width, int height, int *x, int *y, int *w, int *h)
{
    int side = (width < height ? width : height) / 6;
    if (side < FRAME_PROBE_MIN_SIDE) side = FRAME_PROBE_MIN_SIDE;
    int bw = side < width ? side : width, bh = side < height ? side : height;
    *x = (width - bw) / 2;
    *y = (height - bh) / 2;
    *w = bw > 0 ? bw : 0;
    *h = bh > 0 ? bh : 0;
}

int frame_probe_count_differing(const uint8_t *a, const uint8_t *b, int pixels, int channel_delta)
{
    int n = 0;
    for (int i = 0; i < pixels; i++) {
        const uint8_t *pa = a + (size_t)i * 4, *pb = b + (size_t)i * 4;
        for (int c = 0; c < 3; c++) {
            if (abs((int)pa[c] - (int)pb[c]) > channel_delta) {
                n++;
                break;
            }
        }
    }
    return n;
}

bool frame_probe_is_notable(int differing, int pixels)
{
    if (pixels <= 0) return false;
    return (double)differing * 100.0 >= FRAME_PROBE_MIN_PERCENT * (double)pixels;
}
