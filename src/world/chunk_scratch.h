/* chunk_scratch.h — the hot chunks' scratch pool (chunk_scratch.c), for chunk.c. chunk_scratch_in_use and
 * chunk_scratch_trim are public (strata/chunk.h). */
#ifndef STRATA_CHUNK_SCRATCH_H
#define STRATA_CHUNK_SCRATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "strata/chunk.h"

#define CHUNK_SCRATCH_SPARE 256 /* scratches the free slabs may hold (64 MiB); the update worker trims them once a
                                 * world is ready */
#define CHUNK_SCRATCH_BYTES (sizeof(int32_t) * CHUNK_CELLS)

/* A 256 KiB scratch, 64-byte aligned (NULL: out of memory); *zeroed tells whether every cell is 0. */
int32_t *chunk_scratch_acquire(bool *zeroed);
/* Returns a scratch chunk_scratch_acquire handed out (NULL: nothing). */
void chunk_scratch_release(int32_t *p);

#endif
