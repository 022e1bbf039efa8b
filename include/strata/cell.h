/* cell.h — the cell value: one int32 per block.
 *
 * bits 0-9 contents (block id 0..1023), bits 10-13 light (0..15), bits 14-31 data (18 bits).
 * Pure inline helpers; callable from any thread. Cells that two threads may touch at once are read
 * and written through cell_load/cell_store (relaxed atomics), so ThreadSanitizer stays silent, and
 * the worker changes only the light bits of a live chunk with cell_store_light (a CAS that never
 * overwrites contents the main thread just changed). */
#ifndef STRATA_CELL_H
#define STRATA_CELL_H

#include <stdint.h>

#define CELL_CONTENTS_BITS 10
#define CELL_CONTENTS_MASK 0x3FF
#define CELL_LIGHT_SHIFT   10
#define CELL_LIGHT_MASK    (0xF << CELL_LIGHT_SHIFT)
#define CELL_DATA_SHIFT    14
#define CELL_DATA_MAX      0x3FFFF
#define LIGHT_MAX          15

static inline int cell_contents(int32_t v) { return v & CELL_CONTENTS_MASK; }
static inline int cell_light(int32_t v) { return (v >> CELL_LIGHT_SHIFT) & 0xF; }
static inline int cell_data(int32_t v) { return (int)((uint32_t)v >> CELL_DATA_SHIFT); }

static inline int32_t cell_replace_contents(int32_t v, int contents)
{
    return (int32_t)(((uint32_t)v & ~(uint32_t)CELL_CONTENTS_MASK) | ((uint32_t)contents & CELL_CONTENTS_MASK));
}
static inline int32_t cell_replace_light(int32_t v, int light)
{
    return (int32_t)(((uint32_t)v & ~(uint32_t)CELL_LIGHT_MASK) | (((uint32_t)light & 0xF) << CELL_LIGHT_SHIFT));
}
static inline int32_t cell_replace_data(int32_t v, int data)
{
    return (int32_t)(((uint32_t)v & ((1u << CELL_DATA_SHIFT) - 1)) | (((uint32_t)data & CELL_DATA_MAX) << CELL_DATA_SHIFT));
}
/* A block value: contents and data, light 0. */
static inline int32_t cell_make(int contents, int data)
{
    return (int32_t)(((uint32_t)contents & CELL_CONTENTS_MASK) | (((uint32_t)data & CELL_DATA_MAX) << CELL_DATA_SHIFT));
}

/* Relaxed atomic access for cells that another thread may touch concurrently. */
static inline int32_t cell_load(const int32_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void cell_store(int32_t *p, int32_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
/* Sets only the light bits, keeping whatever contents/data are there now. */
static inline void cell_store_light(int32_t *p, int light)
{
    int32_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    for (;;) {
        int32_t nv = cell_replace_light(old, light);
        if (nv == old) return;
        if (__atomic_compare_exchange_n(p, &old, nv, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    }
}

#endif
