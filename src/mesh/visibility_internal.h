/* visibility_internal.h — shared between the occlusion walk's files (src/mesh only): the occluders' horizon
 * that visibility_walk.c builds and asks after each walk. */
#ifndef STRATA_VISIBILITY_INTERNAL_H
#define STRATA_VISIBILITY_INTERNAL_H

#include <stdbool.h>

#include "strata/visibility.h"

typedef struct VisibilityOcclusion VisibilityOcclusion;

VisibilityOcclusion *visibility_occlusion_create(void);
void visibility_occlusion_destroy(VisibilityOcclusion *occlusion);
/* Builds the horizon of the occluder columns of the side x side chunks chunks[gx + side * gz] (chunk
 * coordinates first_x + gx, first_z + gz; NULL: none) around view->camera. */
void visibility_occlusion_build(VisibilityOcclusion *occlusion, const VisibilityView *view,
                                const VisibilityChunk *const *chunks, int side, int first_x, int first_z);
/* Whether every ray from the camera to the box lo..hi (world blocks) ends on a nearer occluder column. */
bool visibility_occlusion_hides(const VisibilityOcclusion *occlusion, const VisibilityView *view, const double lo[3],
                                const double hi[3]);

#endif
