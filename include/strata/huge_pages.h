/* huge_pages.h — the process asks glibc's malloc for transparent huge pages.
 *
 * Why: on a virtual machine the first touch of every fresh 4 KiB page costs ~10 us (measured here: 43 ms to
 * first write 16 MiB, 1 ms on 2 MiB pages), and a world loading at view distance 8 touches ~30,000 of them
 * (meshes, sections, the driver's vertex buffers). glibc's malloc backs its heap with huge pages only when
 * its tunable glibc.malloc.hugetlb=1 is set at start, and then only its main arena (the threads' own arenas
 * stay on 4 KiB pages), so the tunables also keep every thread on that one arena (glibc.malloc.arena_max=1:
 * ~100 mallocs a chunk, ~33k a world of view distance 8, are far too few to contend; the per-thread tcache
 * serves the small ones without the lock). Measured at view distance 8: 30k page faults to 6k, the kernel's
 * CPU time to ready 0.3 s to 0.13 s, RSS after ready +12 MB. A process cannot set tunables for itself once
 * running: so the binary executes itself again, once, with them added to GLIBC_TUNABLES (same pid, same
 * argv; ~20 ms), and the first start's time is passed on so launch times still count from it. An arena
 * count the user chose (glibc.malloc.arena_max in GLIBC_TUNABLES) is kept.
 *
 * Nothing happens when the tunable is already set, when STRATA_HUGE_PAGES=0, under a sanitizer (its own
 * allocator ignores the tunable) or valgrind (it would not follow the exec), when the system's THP mode is
 * "never", or off Linux; a failed exec goes on in the same process. */
#ifndef STRATA_HUGE_PAGES_H
#define STRATA_HUGE_PAGES_H

#include <stdbool.h>

/* Call first in main, before any thread or output. Returns only when it did not re-execute. */
void process_prefer_huge_pages(char **argv);

/* Whether the kernel hands out transparent huge pages to a region that asks (its mode "always" or "madvise"). */
bool process_huge_pages_offered(void);

/* Seconds (CLOCK_MONOTONIC) since the first start of this process before a re-execution, or 0 when there was
 * none: a launch timer started after the re-execution adds it. */
double process_start_head_seconds(void);

#endif
