/* terrain_tools.h — height tools on the columns of the voxel terrain: raise/lower, flatten, smooth, paint.
 *
 * A column's surface is its highest terrain block (an opaque, solid cube: leaves, plants, water and air
 * are not terrain). The tools work in a disc of `radius` columns around (x, z) (dx^2 + dz^2 <= r^2), with
 * a falloff from the centre to the rim: none (1 everywhere), linear (1 - t), smooth (1 - smoothstep(t)),
 * t = distance / radius. A raised column keeps its surface block on top, with dirt (under grass, dirt or
 * snow; else the surface block itself) for three cells beneath and stone below; a lowered one is cut to
 * air and gets its surface block back on its new top. A plant on a changed column is removed with it.
 * - modify_height: each column moves by round(delta * falloff).
 * - flatten: each column moves toward target_y by strength * weight (weight 1 in the core, the inner half
 *   of the radius, then smooth to the rim): with strength 1 every core column ends exactly at target_y.
 * - smooth: `iterations` passes of h += strength * weight * (mean of the 3x3 heights - h), rounded; the
 *   result is blended back toward the original as little as needed so that the largest height step
 *   between neighbouring columns (the max slope) never grows.
 * - paint_layer: the surface block becomes `block` with probability opacity * falloff, drawn from a hash
 *   of (seed, x, z): the same stroke paints the same cells.
 * Each call is one history entry (editor_begin_action / end) and returns the cells changed in *changed
 * (may be NULL). Columns whose chunk is not loaded are skipped. ST_ERR_ARG for a radius outside
 * 1..TERRAIN_TOOL_MAX_RADIUS or a bad argument, with a message saying why. Threads: main thread only. */
#ifndef STRATA_TERRAIN_TOOLS_H
#define STRATA_TERRAIN_TOOLS_H

#include <stdint.h>
#include "strata/edit.h"
#include "strata/error.h"

#define TERRAIN_TOOL_MAX_RADIUS 64

typedef enum ToolFalloff { TOOL_FALLOFF_NONE = 0, TOOL_FALLOFF_LINEAR, TOOL_FALLOFF_SMOOTH, TOOL_FALLOFF_COUNT } ToolFalloff;

/* The weight at distance `d` of a tool of radius `r` (0 outside). */
float terrain_tool_falloff(ToolFalloff falloff, float d, float r);
/* "none" | "linear" | "smooth" -> ToolFalloff, or -1. */
int terrain_tool_falloff_parse(const char *name);
/* The y of the column's surface block, or -1 (no terrain block, or the chunk is not loaded). */
int terrain_tool_surface_height(const Editor *editor, int x, int z);

StResult terrain_tool_modify_height(Editor *editor, int x, int z, int radius, int delta, ToolFalloff falloff,
                                    int *changed);
StResult terrain_tool_flatten(Editor *editor, int x, int z, int radius, int target_y, float strength, int *changed);
StResult terrain_tool_smooth(Editor *editor, int x, int z, int radius, float strength, int iterations, int *changed);
StResult terrain_tool_paint_layer(Editor *editor, int x, int z, int radius, int block, float opacity,
                                  ToolFalloff falloff, uint64_t seed, int *changed);

#endif
