/* crosshair_probe.c — reading the crosshair box after a frame's draw (crosshair_probe.h).
 *
 * Design: the reference read allocates both buffers for the box frame_probe_box gives at this size; a
 * comparison reads into the second and counts the pixels that differ by more than FRAME_PROBE_CHANNEL_DELTA
 * (frame_probe.c, SDL- and GL-free and unit-tested); frame_probe_is_notable decides. */
#include "bench/crosshair_probe.h"

#include <stdlib.h>
#include <string.h>

#include "frame_probe.h"

void crosshair_probe_request(CrosshairProbe *p, ProbeRead read)
{
    p->hide_highlight = true;
    p->read = read;
}

void crosshair_probe_reset(CrosshairProbe *p)
{
    free(p->reference);
    free(p->current);
    memset(p, 0, sizeof *p);
}

StResult crosshair_probe_after_draw(CrosshairProbe *p, Renderer *renderer, int width, int height)
{
    ProbeRead what = p->read;
    p->read = PROBE_READ_NONE;
    if (what == PROBE_READ_NONE) return ST_OK;
    if (what == PROBE_READ_REFERENCE) {
        free(p->reference);
        free(p->current);
        frame_probe_box(width, height, &p->x, &p->y, &p->w, &p->h);
        size_t bytes = (size_t)p->w * (size_t)p->h * 4;
        p->reference = malloc(bytes);
        p->current = malloc(bytes);
        if (!p->reference || !p->current)
            return st_fail(ST_ERR_NOMEM, "frame probe: out of memory for %zu bytes", bytes);
        return renderer_read_pixels(renderer, p->x, p->y, p->w, p->h, p->reference);
    }
    if (!p->reference) return st_fail(ST_ERR_STATE, "frame probe: no reference frame was read");
    StResult rc = renderer_read_pixels(renderer, p->x, p->y, p->w, p->h, p->current);
    if (rc != ST_OK) return rc;
    p->differing = frame_probe_count_differing(p->reference, p->current, p->w * p->h, FRAME_PROBE_CHANNEL_DELTA);
    p->changed = frame_probe_is_notable(p->differing, p->w * p->h);
    return ST_OK;
}
