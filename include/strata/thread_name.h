/* thread_name.h — each thread says what it is.
 *
 * A thread starts with its creator's name, so the update worker, the job pool's threads and the far-terrain
 * worker all showed as "strata-open" (the thread that opens the world) in top -H, perf, gdb and the kernel's
 * /proc/<pid>/task/<tid>/comm. Each names itself on start: "strata-update", "strata-pool-0".., "strata-far".
 * Linux keeps the first 15 bytes; elsewhere it does nothing. */
#ifndef STRATA_THREAD_NAME_H
#define STRATA_THREAD_NAME_H

/* Names the calling thread `name`, or `name` and `index` as "name-index" when index >= 0. Failure is harmless
 * and silent. */
void thread_name_self(const char *name, int index);

/* The calling thread's name into out (at most 15 bytes and the terminator), or "" where it cannot be read. */
void thread_name_get(char out[16]);

#endif
