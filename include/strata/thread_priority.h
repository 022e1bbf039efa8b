/* thread_priority.h — background threads yield the CPU to the frame.
 *
 * The update worker and the far-terrain worker are background work: on a machine with few cores they
 * compete with the main thread and the GL driver's threads (llvmpipe rasterizes on one thread per
 * core), and a frame that loses its core for a scheduler slice is a visible stutter. A background
 * thread lowers its own scheduling weight (Linux: per-thread nice), so it runs on what the frame
 * leaves and still gets a share when the frame keeps every core busy. Elsewhere it does nothing. */
#ifndef STRATA_THREAD_PRIORITY_H
#define STRATA_THREAD_PRIORITY_H

/* The calling thread's nice value goes up by THREAD_BACKGROUND_NICE (or STRATA_WORKER_NICE from the
 * environment, 0..19), from whatever the process runs at. Failure is harmless and silent. */
#define THREAD_BACKGROUND_NICE 5
void thread_make_background(void);

#endif
