/* crosshair_probe.h — the crosshair box read back after a frame's draw, for dig_visible_within: a reference
 * frame, then frames compared with it until one differs notably (frame_probe.h holds the box and the rule).
 *
 * request: read the box after this frame's draw (a reference or a comparison), with the block outline hidden
 * until reset (it moves as soon as the cell changes). after_draw: does what was asked (nothing when nothing
 * was), ST_ERR_NOMEM or the renderer's read error. reset: frees the buffers, the outline shows again.
 * Threads: main thread (it reads the GL framebuffer through the renderer). */
#ifndef STRATA_GAME_CROSSHAIR_PROBE_H
#define STRATA_GAME_CROSSHAIR_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/render.h"

typedef enum ProbeRead { PROBE_READ_NONE = 0, PROBE_READ_REFERENCE, PROBE_READ_COMPARE } ProbeRead;

typedef struct CrosshairProbe {
    ProbeRead read;               /* what to do with this frame's box */
    bool hide_highlight;          /* no block outline while measuring */
    int x, y, w, h;               /* the box, from the top-left */
    uint8_t *reference, *current; /* w * h RGBA each */
    bool changed;                 /* the last compared box differed notably from the reference */
    int differing;                /* pixels that differed in the last comparison */
} CrosshairProbe;

void crosshair_probe_request(CrosshairProbe *p, ProbeRead read);
StResult crosshair_probe_after_draw(CrosshairProbe *p, Renderer *renderer, int width, int height);
void crosshair_probe_reset(CrosshairProbe *p);

#endif
