/* behaviour.c — block behaviours: falling blocks, fluids, blocks that need support (behaviour.h).
 *
 * Design. Notifications: editor_change_cell appends the cell to the Editor's modified list;
 * behaviour_deliver (once a frame, and before each tick) turns each modified cell and its 6 neighbours into
 * scheduled updates for the cells whose block has a behaviour, due `delay` ticks after the next tick to
 * run. A position is scheduled at most once (an open-addressing set of packed positions); the scheduled
 * array keeps insertion order, and a tick runs the due cells in that order, so the result depends only on
 * the actions and the tick numbers they happen at, never on frame timing. A tick takes at most
 * BEHAVIOUR_TICK_BUDGET updates; the rest stay due for the next tick.
 * The rules read cells with edit_read_cell (a chunk away reads as -1: solid, nothing flows there) and write
 * through the Editor's BehaviourHost (edit_internal.h: ChangeCell in full) inside `in_behaviour`, so the history
 * records them as follow-ups. This file calls nothing in edit.c by name: edit.c calls down into it.
 * Each notification and scheduled update carries the history serial of the action that caused it (its
 * `origin`); undoing that action cancels them (behaviour_cancel), so nothing it set in motion runs on the
 * restored world, where its changes could not be recorded. */
#include "edit_internal.h"

#include <stdlib.h>
#include <string.h>

#include "strata/behaviour.h"

#define DELAY_FALLING 1
#define DELAY_SUPPORT 1
#define DELAY_WATER 5
#define DELAY_OTHER_FLUID 15

static const int SIDE_DX[4] = {1, -1, 0, 0};
static const int SIDE_DZ[4] = {0, 0, 1, -1};

static uint64_t pos_key(int x, int y, int z)
{
    /* x, z in 28 bits each (+-134M blocks), y in 8; never 0 (bit 63 set). */
    return (1ull << 63) | ((uint64_t)(uint32_t)(x & 0xFFFFFFF) << 36) | ((uint64_t)(uint32_t)(z & 0xFFFFFFF) << 8) |
           (uint64_t)(y & 0xFF);
}

static uint64_t key_hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

/* Inserts the key; false if it was there already. */
static bool set_insert(Editor *e, uint64_t key)
{
    if ((e->scheduled_count + 1) * 2 > e->sched_key_cap) {
        int cap = e->sched_key_cap ? e->sched_key_cap * 2 : 1024;
        uint64_t *keys = calloc((size_t)cap, sizeof *keys);
        if (!keys) return false;
        for (int i = 0; i < e->sched_key_cap; i++) {
            uint64_t k = e->sched_keys[i];
            if (!k) continue;
            int j = (int)(key_hash(k) & (uint64_t)(cap - 1));
            while (keys[j]) j = (j + 1) & (cap - 1);
            keys[j] = k;
        }
        free(e->sched_keys);
        e->sched_keys = keys;
        e->sched_key_cap = cap;
    }
    int mask = e->sched_key_cap - 1;
    int j = (int)(key_hash(key) & (uint64_t)mask);
    while (e->sched_keys[j]) {
        if (e->sched_keys[j] == key) return false;
        j = (j + 1) & mask;
    }
    e->sched_keys[j] = key;
    return true;
}

static void set_rebuild(Editor *e)
{
    if (e->sched_key_cap) memset(e->sched_keys, 0, (size_t)e->sched_key_cap * sizeof *e->sched_keys);
    int mask = e->sched_key_cap - 1;
    for (int i = 0; i < e->scheduled_count; i++) {
        const ScheduledCell *s = &e->scheduled[i];
        uint64_t k = pos_key(s->x, s->y, s->z);
        int j = (int)(key_hash(k) & (uint64_t)mask);
        while (e->sched_keys[j]) j = (j + 1) & mask;
        e->sched_keys[j] = k;
    }
}

static int behaviour_delay(const Editor *e, int block)
{
    switch (e->blocks->behaviour[block]) {
    case BLOCK_BEHAVIOUR_FALLING: return DELAY_FALLING;
    case BLOCK_BEHAVIOUR_NEEDS_SUPPORT: return DELAY_SUPPORT;
    case BLOCK_BEHAVIOUR_FLUID: return block == BLOCK_WATER ? DELAY_WATER : DELAY_OTHER_FLUID;
    default: return 0;
    }
}

/* `chunk` is the chunk of (x, z) when the caller has it (NULL: look it up). */
static void schedule_in(Editor *e, const TerrainChunk *chunk, int x, int y, int z, uint32_t origin)
{
    int32_t v;
    if (chunk) {
        if (y < 0 || y >= CHUNK_SIZE_Y) return;
        v = chunk_get_cell_shared(chunk, chunk_local_of(x), y, chunk_local_of(z));
    } else {
        v = edit_read_cell(e->terrain, x, y, z);
    }
    if (v < 0) return;
    int block = cell_contents(v);
    int delay = behaviour_delay(e, block);
    if (delay == 0) return;
    if (!edit_grow((void **)&e->scheduled, &e->scheduled_cap, e->scheduled_count + 1, sizeof(ScheduledCell))) return;
    if (!set_insert(e, pos_key(x, y, z))) return;
    ScheduledCell *s = &e->scheduled[e->scheduled_count++];
    s->x = x;
    s->y = y;
    s->z = z;
    s->origin = origin;
    s->due = e->tick + delay - 1;
}

void behaviour_deliver(Editor *e)
{
    static const int N[7][3] = {{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int i = 0; i < e->modified_count; i++) {
        const EditCellPos *p = &e->modified[i];
        const TerrainChunk *c = terrain_get_chunk_at_cell(e->terrain, p->x, p->z);
        if (c && c->state < CHUNK_STATE_INVALID_LIGHT) c = NULL;
        if (!c) continue;
        for (int k = 0; k < 7; k++) {
            int nx = p->x + N[k][0], nz = p->z + N[k][2];
            bool same = chunk_coord_of(nx) == c->coord_x && chunk_coord_of(nz) == c->coord_z;
            schedule_in(e, same ? c : NULL, nx, p->y + N[k][1], nz, p->origin);
        }
    }
    e->modified_count = 0;
}

void behaviour_cancel(Editor *e, uint32_t origin)
{
    if (origin == 0) return;
    int kept = 0;
    for (int i = 0; i < e->modified_count; i++)
        if (e->modified[i].origin != origin) e->modified[kept++] = e->modified[i];
    e->modified_count = kept;
    kept = 0;
    for (int i = 0; i < e->scheduled_count; i++)
        if (e->scheduled[i].origin != origin) e->scheduled[kept++] = e->scheduled[i];
    if (kept == e->scheduled_count) return;
    e->scheduled_count = kept;
    set_rebuild(e);
}

void behaviour_free(Editor *e)
{
    free(e->scheduled);
    free(e->sched_keys);
}

/* ---- the rules ------------------------------------------------------------------------------------------- */

/* A cell a falling block or a fluid may move into: air, or a block that needs support (it breaks). */
static bool replaceable(const Editor *e, int32_t v)
{
    if (v < 0) return false;
    int b = cell_contents(v);
    return b == BLOCK_AIR || e->blocks->behaviour[b] == BLOCK_BEHAVIOUR_NEEDS_SUPPORT;
}

static void run_falling(Editor *e, int x, int y, int z, int32_t v)
{
    if (y == 0) return;
    int32_t below = edit_read_cell(e->terrain, x, y - 1, z);
    if (below < 0) return;
    int b = cell_contents(below);
    if (!replaceable(e, below) && e->blocks->behaviour[b] != BLOCK_BEHAVIOUR_FLUID) return;
    e->host->write_cell(e, x, y, z, cell_make(BLOCK_AIR, 0));
    e->host->write_cell(e, x, y - 1, z, v);
}

static void run_support(Editor *e, int x, int y, int z)
{
    int32_t below = y > 0 ? edit_read_cell(e->terrain, x, y - 1, z) : cell_make(BLOCK_BEDROCK, 0);
    if (below < 0) return;
    int b = cell_contents(below);
    if (e->blocks->solid[b] || e->blocks->opaque_cube[b]) return;
    e->host->break_cell(e, x, y, z);
}

/* Whether fluid `f` in the cell (x, y, z) rests on ground and so spreads sideways. */
static bool rests_on_ground(const Editor *e, int f, int x, int y, int z)
{
    if (y == 0) return true;
    int32_t below = edit_read_cell(e->terrain, x, y - 1, z);
    if (below < 0) return true;
    return !replaceable(e, below) && cell_contents(below) != f;
}

static void run_fluid(Editor *e, int x, int y, int z, int32_t v)
{
    int f = cell_contents(v);
    int level = fluid_level(v);
    if (level != 0) {
        int want = FLUID_MAX_LEVEL + 1;
        int32_t above = y + 1 < CHUNK_SIZE_Y ? edit_read_cell(e->terrain, x, y + 1, z) : -1;
        if (above >= 0 && cell_contents(above) == f) {
            want = 1;
        } else {
            int sources = 0;
            for (int s = 0; s < 4; s++) {
                int nx = x + SIDE_DX[s], nz = z + SIDE_DZ[s];
                int32_t n = edit_read_cell(e->terrain, nx, y, nz);
                if (n < 0 || cell_contents(n) != f) continue;
                int nl = fluid_level(n);
                if (nl == 0) sources++;
                if (rests_on_ground(e, f, nx, y, nz) && nl + 1 < want) want = nl + 1;
            }
            int32_t below = y > 0 ? edit_read_cell(e->terrain, x, y - 1, z) : -1;
            bool floor = y == 0 || below < 0 || (!replaceable(e, below) && cell_contents(below) != f) ||
                         (cell_contents(below) == f && fluid_level(below) == 0);
            if (sources >= 2 && floor) want = 0;
        }
        if (want > FLUID_MAX_LEVEL) {
            e->host->write_cell(e, x, y, z, cell_make(BLOCK_AIR, 0));
            return;
        }
        if (want != level) {
            e->host->write_cell(e, x, y, z, cell_make(f, want));
            level = want;
        }
    }
    /* Flow: down first; sideways only where the fluid rests on ground. */
    if (y > 0) {
        int32_t below = edit_read_cell(e->terrain, x, y - 1, z);
        if (replaceable(e, below)) {
            e->host->write_cell(e, x, y - 1, z, cell_make(f, 1));
            return;
        }
    }
    if (level >= FLUID_MAX_LEVEL || !rests_on_ground(e, f, x, y, z)) return;
    for (int s = 0; s < 4; s++) {
        int nx = x + SIDE_DX[s], nz = z + SIDE_DZ[s];
        int32_t n = edit_read_cell(e->terrain, nx, y, nz);
        if (replaceable(e, n)) e->host->write_cell(e, nx, y, nz, cell_make(f, level + 1));
    }
}

static void run_cell(Editor *e, int x, int y, int z)
{
    int32_t v = edit_read_cell(e->terrain, x, y, z);
    if (v < 0) return;
    int b = cell_contents(v);
    switch (e->blocks->behaviour[b]) {
    case BLOCK_BEHAVIOUR_FALLING: run_falling(e, x, y, z, v); break;
    case BLOCK_BEHAVIOUR_NEEDS_SUPPORT: run_support(e, x, y, z); break;
    case BLOCK_BEHAVIOUR_FLUID: run_fluid(e, x, y, z, v); break;
    default: break;
    }
}

static void run_tick(Editor *e)
{
    behaviour_deliver(e);
    /* Take the due cells (in schedule order, up to the budget) out first: running them schedules more. */
    int budget = BEHAVIOUR_TICK_BUDGET, taken = 0, kept = 0;
    ScheduledCell *due = NULL;
    int due_cap = 0;
    for (int i = 0; i < e->scheduled_count; i++) {
        ScheduledCell s = e->scheduled[i];
        if (s.due <= e->tick && taken < budget && edit_grow((void **)&due, &due_cap, taken + 1, sizeof *due)) {
            due[taken++] = s;
        } else {
            e->scheduled[kept++] = s;
        }
    }
    if (taken > 0) {
        e->scheduled_count = kept;
        set_rebuild(e);
        e->in_behaviour = true;
        editor_defer_begin(e);
        for (int i = 0; i < taken; i++) run_cell(e, due[i].x, due[i].y, due[i].z);
        e->host->downgrades_end(e);
        e->in_behaviour = false;
    }
    free(due);
    e->tick++;
}

void editor_tick(Editor *e, int ticks)
{
    for (int i = 0; i < ticks; i++) run_tick(e);
}

int editor_advance(Editor *e, double seconds)
{
    const double step = 1.0 / BEHAVIOUR_TICK_HZ;
    e->tick_accumulator += seconds;
    int n = 0;
    while (e->tick_accumulator >= step && n < BEHAVIOUR_MAX_CATCH_UP) {
        run_tick(e);
        e->tick_accumulator -= step;
        n++;
    }
    if (e->tick_accumulator > step) e->tick_accumulator = step;
    return n;
}
