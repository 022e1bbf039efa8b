/* pool.c — the update worker's job pool: N threads that run chunk steps the worker hands them.
 *
 * Design. The worker (or, in non-threaded mode, the caller of updater_run_steps) stays the only scheduler
 * and the only owner of chunk states: it fills a job slot (a chunk, the step to run, the settings), hands
 * it over, and later commits the slot's result (schedule.c). A pool thread only runs the step function
 * (update_step.h: (chunk, state, context) -> next state) with its own StepContext, and never takes the
 * updater's mutex, so an exchange on the main thread never waits for a step and a step never waits for the
 * exchange. The pool's own lock guards the slots' status, the queue counts and the pause; the lock order
 * is the updater's mutex, then the pool's lock (pool threads take only the latter).
 *
 * Jobs start in hand-over order (the scheduler hands them over nearest first), except that a step of a chunk an
 * edit downgraded starts before every queued job that is not (a dig shows within a few frames however much
 * of a world is queued to load: with one pool thread a core, test_dig_latency). The scheduler sleeps on
 * done_cond with the updater's mutex dropped; a finished job, the exchange (update_pool_wake) and quit wake
 * it. The main thread pauses the pool (no job starts, the running ones end) before it changes the Terrain's
 * table (jobs look neighbours up in it) and before it saves chunks itself.
 *
 * The threads' generator contexts share what they derive (generator_shared_cache.c): neighbouring chunks go to
 * whichever thread is free, so each would otherwise derive the same caves and scatter again.
 *
 * threads == 1 creates no thread: update_pool_submit runs the job at once on the caller (the worker, with
 * the mutex held, as the single-threaded worker always did), so one thread pays no hand-over. */
#include <stdlib.h>
#include <string.h>

#include "strata/log.h"
#include "strata/thread_name.h"
#include "strata/thread_priority.h"
#include "update_internal.h"

#define UPDATE_POOL_MAX_THREADS 64

static int pool_chunk_distance(const TerrainChunk *a, const TerrainChunk *b)
{
    int dx = abs(a->coord_x - b->coord_x), dz = abs(a->coord_z - b->coord_z);
    return dx > dz ? dx : dz;
}

/* schedule.c's footprint rule: whether a job in flight reads or writes `c` (here: it is a question about the slots). */
bool update_chunk_in_footprint(const TerrainUpdater *u, const TerrainChunk *c)
{
    const UpdatePool *p = &u->pool;
    if (p->in_flight == 0) return false;
    for (int i = 0; i < p->capacity; i++) {
        const UpdateJob *j = &p->jobs[i];
        if (j->used && pool_chunk_distance(c, j->chunk) <= j->read_radius) return true;
    }
    return false;
}

/* update_pack.c's pack itself, here so that the pool calls nothing above it. */
bool update_pack_cells(TerrainChunk *k, ChunkState state)
{
    /* A Valid chunk also drops its slice geometry (kept only to remesh a few slices after an edit: it is several
     * times the packed cells, so a cold chunk rebuilds all its slices when next meshed). Between the two vertex
     * passes the geometry is half a mesh and stays. */
    if (state == CHUNK_STATE_VALID) {
        chunk_geometry_destroy(k->worker_geometry);
        k->worker_geometry = NULL;
    }
    return chunk_pack(k);
}

/* Runs a job's step with `step` (settings of the job applied first), or its pack. */
static ChunkState pool_run_step(UpdateJob *job, StepContext *step, float *brightness, int *season)
{
    if (job->kind == UPDATE_JOB_PACK) {
        update_pack_cells(job->chunk, job->from);
        return job->from;
    }
    if (*brightness != job->brightness) {
        *brightness = job->brightness;
        mesher_context_set_brightness(step->mesher, job->brightness);
    }
    if (*season != job->season) {
        *season = job->season;
        mesher_context_set_season(step->mesher, job->season);
    }
    step->sky_light = job->sky_light;
    mesher_context_set_copies(step->mesher, job->copies);   /* 0 (not a vertex pass): both */
    return updater_step_run(job->chunk, job->from, step);
}

/* The queued job to run next, or NULL (pool lock held): the oldest step of an edited chunk, else the oldest. */
static UpdateJob *pool_next_queued(UpdatePool *p)
{
    UpdateJob *best = NULL;
    for (int i = 0; i < p->capacity; i++) {
        UpdateJob *j = &p->jobs[i];
        if (j->status != UPDATE_JOB_QUEUED) continue;
        if (!best || j->edited > best->edited || (j->edited == best->edited && j->seq < best->seq)) best = j;
    }
    return best;
}

static void *pool_thread_main(void *arg)
{
    UpdatePoolThread *self = arg;
    UpdatePool *p = &self->updater->pool;
    thread_name_self("strata-pool", (int)(self - p->workers));
    thread_make_background();
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && (p->paused || p->queued == 0)) pthread_cond_wait(&p->job_cond, &p->lock);
        if (p->quit) break;
        UpdateJob *job = pool_next_queued(p);
        job->status = UPDATE_JOB_RUNNING;
        p->queued--;
        p->running++;
        pthread_mutex_unlock(&p->lock);
        ChunkState result = pool_run_step(job, &self->step, &self->brightness, &self->season);
        pthread_mutex_lock(&p->lock);
        job->result = result;
        job->status = UPDATE_JOB_DONE;
        p->running--;
        p->done++;
        /* The scheduler is woken only when it matters now: an edit's step, any job while an edited chunk
         * waits for a step (its neighbours may be this job's: the dig must not wait for the queue to drain),
         * or the queue about to run dry (a thread would wait for work). Waking it at every job cost a context switch each on a machine whose
         * cores all run steps (perf: ~12% of a loading world's CPU time at 2 threads in futex wake-ups and
         * switches); results wait a little longer for their commit, which takes them all at once. */
        if (job->edited || p->eager || p->queued < p->threads) pthread_cond_signal(&p->done_cond);
        if (p->running == 0) pthread_cond_broadcast(&p->idle_cond);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

StResult update_pool_create(TerrainUpdater *u, int threads)
{
    UpdatePool *p = &u->pool;
    if (threads < 1) threads = 1;
    if (threads > UPDATE_POOL_MAX_THREADS) threads = UPDATE_POOL_MAX_THREADS;
    p->threads = threads;
    p->capacity = threads == 1 ? 1 : (UPDATE_POOL_STEP_SLOTS + UPDATE_POOL_EDIT_SLOTS + UPDATE_POOL_PACK_SLOTS) * threads;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->job_cond, NULL);
    pthread_cond_init(&p->done_cond, NULL);
    pthread_cond_init(&p->idle_cond, NULL);
    p->jobs = calloc((size_t)p->capacity, sizeof *p->jobs);
    if (!p->jobs) return st_fail(ST_ERR_NOMEM, "update: out of memory for the job pool");
    if (threads == 1) return ST_OK;
    p->gen_shared = gen_shared_cache_create();   /* NULL (out of memory): each thread derives alone */
    p->handles = calloc((size_t)threads, sizeof *p->handles);
    p->workers = calloc((size_t)threads, sizeof *p->workers);
    if (!p->handles || !p->workers) return st_fail(ST_ERR_NOMEM, "update: out of memory for the job pool");
    for (int i = 0; i < threads; i++) {
        UpdatePoolThread *w = &p->workers[i];
        w->updater = u;
        w->brightness = u->worker_brightness;
        w->season = u->worker_season;
        StResult rc = step_context_init(&w->step, u->terrain, u->generator, u->blocks, u->storage, u->sky_light);
        if (rc != ST_OK) return rc;
        w->step.neighbours_checked = true;
        gen_context_share(w->step.gen, p->gen_shared);
        mesher_context_set_brightness(w->step.mesher, w->brightness);
        mesher_context_set_season(w->step.mesher, w->season);
    }
    for (int i = 0; i < threads; i++) {
        int err = pthread_create(&p->handles[i], NULL, pool_thread_main, &p->workers[i]);
        if (err) return st_fail(ST_ERR_STATE, "update: cannot start job pool thread %d of %d: %s", i + 1, threads,
                                strerror(err));
        p->started++;
    }
    return ST_OK;
}

void update_pool_destroy(TerrainUpdater *u)
{
    UpdatePool *p = &u->pool;
    if (!p->jobs) return; /* never created (the pool's mutexes are not initialised then either) */
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->job_cond);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->started; i++) pthread_join(p->handles[i], NULL);
    p->started = 0;
    if (p->workers)
        for (int i = 0; i < p->threads; i++) step_context_free(&p->workers[i].step);
    free(p->workers);
    free(p->handles);
    free(p->jobs);
    gen_shared_cache_destroy(p->gen_shared);   /* after every context that used it */
    p->gen_shared = NULL;
    p->workers = NULL;
    p->handles = NULL;
    p->jobs = NULL;
    pthread_cond_destroy(&p->idle_cond);
    pthread_cond_destroy(&p->done_cond);
    pthread_cond_destroy(&p->job_cond);
    pthread_mutex_destroy(&p->lock);
}

/* Counts a slot handed over (worker). */
static void pool_count_in(UpdatePool *p, UpdateJob *job)
{
    job->used = true;
    p->in_flight++;
    if (job->kind == UPDATE_JOB_PACK) p->packs_in_flight++;
    else p->steps_in_flight++;
}

void update_pool_run_here(TerrainUpdater *u, UpdateJob *job)
{
    UpdatePool *p = &u->pool;
    pool_count_in(p, job);
    /* the worker's own context, whose settings the exchange keeps current */
    float brightness = job->brightness;
    int season = job->season;
    job->result = pool_run_step(job, &u->step, &brightness, &season);
    pthread_mutex_lock(&p->lock);
    job->status = UPDATE_JOB_DONE;
    p->done++;
    pthread_mutex_unlock(&p->lock);
}

void update_pool_submit(TerrainUpdater *u, UpdateJob *job)
{
    UpdatePool *p = &u->pool;
    if (p->threads == 1) {
        update_pool_run_here(u, job);
        return;
    }
    pool_count_in(p, job);
    pthread_mutex_lock(&p->lock);
    job->status = UPDATE_JOB_QUEUED;
    job->seq = p->next_seq++;
    p->queued++;
    pthread_cond_signal(&p->job_cond);
    pthread_mutex_unlock(&p->lock);
}

int update_pool_take_done(TerrainUpdater *u, UpdateJob **out, int max)
{
    UpdatePool *p = &u->pool;
    int n = 0;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->capacity && n < max && p->done > 0; i++) {
        UpdateJob *j = &p->jobs[i];
        if (!j->used || j->status != UPDATE_JOB_DONE) continue;
        j->status = 0;
        p->done--;
        out[n++] = j;
    }
    pthread_mutex_unlock(&p->lock);
    return n;
}

void update_pool_release(TerrainUpdater *u, UpdateJob *job)
{
    job->used = false;
    job->chunk = NULL;
    u->pool.in_flight--;
    if (job->kind == UPDATE_JOB_PACK) u->pool.packs_in_flight--;
    else u->pool.steps_in_flight--;
}

void update_pool_wait(TerrainUpdater *u)
{
    UpdatePool *p = &u->pool;
    bool eager = u->edits_waiting;   /* worker-owned: read with the updater's mutex still held */
    pthread_mutex_unlock(&u->mutex);
    pthread_mutex_lock(&p->lock);
    p->eager = eager;
    while (p->done == 0 && !p->wake && !p->quit) pthread_cond_wait(&p->done_cond, &p->lock);
    p->wake = false;
    pthread_mutex_unlock(&p->lock);
    pthread_mutex_lock(&u->mutex);
}

void update_pool_wake(TerrainUpdater *u)
{
    UpdatePool *p = &u->pool;
    pthread_mutex_lock(&p->lock);
    p->wake = true;
    pthread_cond_signal(&p->done_cond);
    pthread_mutex_unlock(&p->lock);
}

void update_pool_pause(TerrainUpdater *u)
{
    UpdatePool *p = &u->pool;
    pthread_mutex_lock(&p->lock);
    p->paused = true;
    while (p->running > 0) pthread_cond_wait(&p->idle_cond, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void update_pool_resume(TerrainUpdater *u)
{
    UpdatePool *p = &u->pool;
    pthread_mutex_lock(&p->lock);
    p->paused = false;
    pthread_cond_broadcast(&p->job_cond);
    pthread_mutex_unlock(&p->lock);
}

void update_pool_counts(TerrainUpdater *u, int *queued, int *running)
{
    UpdatePool *p = &u->pool;
    pthread_mutex_lock(&p->lock);
    *queued = p->queued;
    *running = p->running;
    pthread_mutex_unlock(&p->lock);
}
