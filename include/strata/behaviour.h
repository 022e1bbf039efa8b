/* behaviour.h — block behaviours: what blocks do when the world around them changes.
 *
 * Data driven: blocks.json gives a block "behaviour": "falling" (sand, gravel: drop one cell per tick while
 * the cell below is air, a fluid or a plant), "fluid" (water, magma: flow with a level in the data bits,
 * 0 = source, 1..7 flowing; a fluid falls into the cell below, or where it rests on ground spreads
 * sideways with its level + 1 up to 7; a flowing cell takes the smallest level of its feeders + 1 and
 * dries up past 7, so water cut off from its source recedes; a flowing cell between two sources on ground
 * becomes a source), "needs_support" (plants, flowers, torches, snow cover: break when the block below
 * stops being solid). Other blocks (leaves included) stay.
 * How it runs: a changed cell (editor_change_cell) notifies itself and its 6 neighbours; a notified cell
 * whose block has a behaviour is scheduled a few ticks later (falling and support 1 tick, water 5, magma
 * 15). Behaviour ticks run on the main thread at BEHAVIOUR_TICK_HZ, at most BEHAVIOUR_TICK_BUDGET cell
 * updates a tick (the rest wait for the next), in the order cells were scheduled: the same actions at the
 * same ticks give the same world. Their changes are ordinary ChangeCells, recorded in the history as a
 * follow-up of the newest action (one undo takes back the pour and the flood). Cells in chunks that are
 * not loaded are skipped (treated as solid). Threads: main thread only. */
#ifndef STRATA_BEHAVIOUR_H
#define STRATA_BEHAVIOUR_H

#include <stdint.h>
#include "strata/cell.h"
#include "strata/edit.h"

#define BEHAVIOUR_TICK_HZ 20
#define BEHAVIOUR_TICK_BUDGET 4096      /* cell updates per tick */
#define BEHAVIOUR_MAX_CATCH_UP 4        /* ticks run at most per editor_advance (a slow frame) */
#define FLUID_MAX_LEVEL 7               /* sideways reach of a source */

static inline int fluid_level(int32_t value) { return cell_data(value) & 7; }

/* Runs `ticks` behaviour ticks now (script `tick N`, tests). */
void editor_tick(Editor *editor, int ticks);
/* Adds real time; runs the ticks due (at most BEHAVIOUR_MAX_CATCH_UP). Returns the ticks run. */
int editor_advance(Editor *editor, double seconds);

#endif
