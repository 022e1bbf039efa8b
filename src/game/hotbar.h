/* hotbar.h — the nine hotbar slots and which one is selected; saved with a world as hotbar.json.
 *
 * Pure logic (no SDL, no GL): part of strata_game_logic. A slot holds a block id (never air). Selecting
 * by key (1-9), wheel (wraps around), picking a block (middle click: select the slot that holds it, else
 * put it in the selected slot) and setting a slot from the picker. The file names blocks (not ids), so a
 * world keeps its hotbar when blocks.json gains blocks; unknown names fall back to the default slot.
 * Threads: main thread. Errors: hotbar_load returns ST_ERR_IO/ST_ERR_FORMAT naming file and field. */
#ifndef STRATA_GAME_HOTBAR_H
#define STRATA_GAME_HOTBAR_H

#include <stdbool.h>
#include "strata/block.h"
#include "strata/error.h"

#define HOTBAR_SLOTS 9
#define HOTBAR_FILE "hotbar.json"
#define HOTBAR_FORMAT_VERSION 1

typedef struct Hotbar {
    int slots[HOTBAR_SLOTS];      /* block ids */
    int selected;                 /* 0..HOTBAR_SLOTS-1 */
} Hotbar;

void hotbar_default(Hotbar *hotbar);
static inline int hotbar_block(const Hotbar *hotbar) { return hotbar->slots[hotbar->selected]; }
/* slot 0..8; out of range is ignored. */
void hotbar_select(Hotbar *hotbar, int slot);
/* Moves the selection by `steps` (positive: right), wrapping around. */
void hotbar_scroll(Hotbar *hotbar, int steps);
/* Puts `block` in slot 0..8 (air and out-of-range slots are ignored). */
void hotbar_set(Hotbar *hotbar, int slot, int block);
/* Middle click: the slot holding `block` becomes selected; if none does, the selected slot takes it. */
void hotbar_pick(Hotbar *hotbar, int block);
/* The slot holding `block`, or -1. */
int hotbar_find(const Hotbar *hotbar, int block);

/* world_dir/hotbar.json: a missing file leaves *hotbar unchanged and returns ST_ERR_NOT_FOUND (an older
 * world); a bad one ST_ERR_FORMAT naming the field. Unknown block names keep that slot's current block. */
StResult hotbar_load(const char *world_dir, const BlockRegistry *blocks, Hotbar *hotbar);
StResult hotbar_save(const char *world_dir, const BlockRegistry *blocks, const Hotbar *hotbar);

#endif
