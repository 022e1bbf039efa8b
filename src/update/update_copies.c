/* update_copies.c — which geometry copies of a chunk the locations want built (update.h's rule).
 *
 * Design. The renderer draws a chunk from its far copy from RENDER_LOD_FROM blocks on (horizontal, the eye
 * to the chunk's centre: render_chunk_draws_far) and from full resolution nearer. A viewer location (the
 * game's player, whose eye is over its position) wants each copy where it may be drawn soon: full
 * resolution nearer than far_copy_from + UPDATE_COPY_MARGIN, the far copy from far_copy_from -
 * UPDATE_COPY_MARGIN on, so both are there in the band around the switch (a chunk dissolving across it draws
 * both) and a player walking about that distance rebuilds nothing. A location that is not a viewer (tests,
 * tools: no renderer measures from it) wants both. Pure: the scheduler (schedule.c, when pass 1 is handed
 * over), the exchange (update_exchange.c, a Valid chunk whose wanted copies grew) and strata-bench ask the
 * same rule. */
#include <math.h>

#include "update_internal.h"

unsigned updater_copies_wanted(const UpdateLocation *locations, int count, int cx, int cz)
{
    unsigned wanted = 0;
    bool any = false;
    for (int i = 0; i < count; i++) {
        const UpdateLocation *loc = &locations[i];
        if (!loc->active || update_location_distance(loc, cx, cz) > loc->content_chunks + 1) continue;
        any = true;
        if (!loc->viewer) return MESH_COPIES_BOTH;
        if (!(loc->far_copy_from > 0.0f)) {   /* the renderer never draws the far copy */
            wanted |= MESH_COPY_FULL;
            continue;
        }
        /* the renderer's distance: horizontal, the eye (over the player) to the chunk's centre */
        double dx = (double)cx * CHUNK_SIZE_X + CHUNK_SIZE_X * 0.5 - loc->x;
        double dz = (double)cz * CHUNK_SIZE_Z + CHUNK_SIZE_Z * 0.5 - loc->z;
        double distance = sqrt(dx * dx + dz * dz);
        if (distance < loc->far_copy_from + UPDATE_COPY_MARGIN) wanted |= MESH_COPY_FULL;
        if (distance >= loc->far_copy_from - UPDATE_COPY_MARGIN) wanted |= MESH_COPY_FAR;
    }
    return any ? wanted : MESH_COPIES_BOTH;
}
