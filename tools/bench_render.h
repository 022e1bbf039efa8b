/* bench_render.h — strata-bench's rendering figures kept out of strata-bench.c: triangles at view
 * distance 8 around a seed's spawn (drawn in the spawn view; all, merged and unmerged) and far-terrain patch building.
 * Thread safety: call from one thread. */
#ifndef STRATA_BENCH_RENDER_H
#define STRATA_BENCH_RENDER_H

#include <stdio.h>
#include "strata/block.h"
#include "strata/error.h"

typedef struct BenchRender {
    double triangles_vd8;            /* seed 42, the game's spawn view, view distance 8: triangles drawn (fog
                                      * range, frustum, subset and occlusion culling; merged meshes) */
    double triangles_vd8_cave_walk;  /* the same view, occlusion culling by the cave walk alone */
    double triangles_vd8_no_occlusion; /* the same view without occlusion culling */
    double triangles_vd8_all;        /* every triangle of the merged meshes within view distance 8, unculled */
    double triangles_vd8_unmerged;   /* the same with greedy merging off (one quad per face) */
    double occlusion_walk_us;        /* median time of one visibility_walk_run with occlusion in that view */
    double spawn[3];                 /* the camera of that view (eye), and its yaw */
    double spawn_yaw;
    double far_patch_build_us;       /* median time to build one far-terrain patch (0 when not measured) */
} BenchRender;

/* asset_dir holds worldgen.json. */
StResult bench_render_run(const BlockRegistry *blocks, const char *asset_dir, BenchRender *out);
/* Prints `, "triangles_vd8": ..., ...` (to splice into the JSON object). */
void bench_render_print_json(FILE *f, const BenchRender *r);
void bench_render_print_table(FILE *f, const BenchRender *r);

#endif
