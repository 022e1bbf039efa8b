/* test_update_storage.c — the update worker's persistence through a fake in-memory ChunkStorage: an
 * edited chunk is saved exactly once on release and comes back with the edit; an unchanged reload is not
 * written again; a damaged stored copy is logged, generated in memory, never written back until the
 * player edits it; autosave hands counters over, gives them back on failure, survives a release racing
 * it; save_all writes every modified chunk and reports the first error. A storage that cannot write never
 * costs an edit: a released chunk whose save fails stays in memory (the same chunk for a location that
 * comes back), its save is retried at each autosave and by save_all (not at every frame), it is written
 * exactly once when the storage recovers, and past UPDATE_UNSAVED_ALARM_CHUNKS stuck chunks each autosave
 * says the world cannot be saved. */
#include <time.h>

#include "update_fixture.h"

static void test_storage_release_and_reload(void)
{
    fixture_init(false, true);
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.total_saves, 0);
    CHECK_EQ_INT(fx.storage.loads, 81);

    CHECK(edit_change_cell(fx.terrain, fx.u, 19, 100, 19, stone()));
    CHECK_EQ_INT(terrain_get_chunk(fx.terrain, 1, 1)->modification_counter, 1);
    run_until_idle();
    set_loc(0, 100, 0, 2, 4);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.total_saves, 1);
    FakeEntry *e = fake_find(&fx.storage, 1, 1);
    CHECK(e != NULL && e->saves == 1);
    if (e) CHECK_EQ_INT(cell_contents(fake_saved_cell(e, 3, 100, 3)), BLOCK_STONE);

    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    CHECK(updater_is_ready(fx.u, 0));
    TerrainChunk *c = terrain_get_chunk(fx.terrain, 1, 1);
    CHECK(c->flags & CHUNK_FLAG_LOADED);
    CHECK(!(terrain_get_chunk(fx.terrain, 0, 0)->flags & CHUNK_FLAG_LOADED));
    CHECK_EQ_INT(c->modification_counter, 0);
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 19, 100, 19)), BLOCK_STONE);
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 19, 40, 19)), cell_contents(fake_cell_at(19, 40, 19)));

    /* Unchanged since the reload: not written again. */
    set_loc(0, 100, 0, 2, 4);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.total_saves, 1);
    CHECK_EQ_INT(fx.storage.bad_saves, 0);
    fixture_free();
}

static void test_storage_damaged(void)
{
    fixture_init(false, true);
    fx.storage.has_damaged = true;
    fx.storage.damaged_cx = 2;
    fx.storage.damaged_cz = 0;
    log_set_level(LOG_SILENT);
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    TerrainChunk *c = terrain_get_chunk(fx.terrain, 2, 0);
    CHECK(c->flags & CHUNK_FLAG_DAMAGED_ON_DISK);
    CHECK(!(c->flags & CHUNK_FLAG_LOADED));
    CHECK_EQ_INT(c->state, CHUNK_STATE_VALID);
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 33, 10, 1)), BLOCK_STONE);
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 33, 200, 1)), BLOCK_AIR);

    /* Not edited: released without a write, damaged again on return. */
    set_loc(0, 100, 0, 2, 4);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.total_saves, 0);
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    c = terrain_get_chunk(fx.terrain, 2, 0);
    CHECK(c->flags & CHUNK_FLAG_DAMAGED_ON_DISK);

    /* Edited: the player's version wins and replaces the damaged copy. */
    CHECK(edit_change_cell(fx.terrain, fx.u, 34, 90, 2, stone()));
    CHECK(!(c->flags & CHUNK_FLAG_DAMAGED_ON_DISK));
    set_loc(0, 100, 0, 2, 4);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.total_saves, 1);
    CHECK(fake_find(&fx.storage, 2, 0) != NULL);
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    c = terrain_get_chunk(fx.terrain, 2, 0);
    CHECK(c->flags & CHUNK_FLAG_LOADED);
    CHECK(!(c->flags & CHUNK_FLAG_DAMAGED_ON_DISK));
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 34, 90, 2)), BLOCK_STONE);
    CHECK_EQ_INT(fx.storage.bad_saves, 0);
    log_set_level(LOG_INFO);
    fixture_free();
}

static void test_storage_autosave_and_save_all(void)
{
    fixture_init(false, true);
    log_set_level(LOG_SILENT);
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    TerrainChunk *c = terrain_get_chunk(fx.terrain, 0, 0);

    /* Autosave: handed over at the exchange (counter reset), written by the worker. */
    CHECK(edit_change_cell(fx.terrain, fx.u, 1, 90, 1, stone()));
    CHECK(edit_change_cell(fx.terrain, fx.u, 2, 90, 1, stone()));
    CHECK_EQ_INT(c->modification_counter, 2);
    updater_request_autosave(fx.u);
    updater_exchange(fx.u, &fx.cb);
    CHECK_EQ_INT(c->modification_counter, 0);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.total_saves, 1);
    FakeEntry *e = fake_find(&fx.storage, 0, 0);
    CHECK(e && cell_contents(fake_saved_cell(e, 1, 90, 1)) == BLOCK_STONE &&
          cell_contents(fake_saved_cell(e, 2, 90, 1)) == BLOCK_STONE);
    UpdaterStats st;
    updater_get_stats(fx.u, &st);
    CHECK_EQ_INT(st.chunks_saved, 1);

    /* A failed autosave gives the counter back. */
    CHECK(edit_change_cell(fx.terrain, fx.u, 3, 90, 1, stone()));
    fx.storage.fail_saves = 1;
    updater_request_autosave(fx.u);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.failed_saves, 1);
    CHECK_EQ_INT(c->modification_counter, 1);
    updater_request_autosave(fx.u);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.total_saves, 2);
    CHECK_EQ_INT(c->modification_counter, 0);

    /* Autosave handed over, then the chunk released before the worker got to it: saved once. */
    CHECK(edit_change_cell(fx.terrain, fx.u, -5, 90, 3, stone()));
    updater_request_autosave(fx.u);
    updater_exchange(fx.u, &fx.cb);
    set_loc(0, 100, 0, 2, 4);
    updater_exchange(fx.u, &fx.cb);
    run_until_idle();
    e = fake_find(&fx.storage, -1, 0);
    CHECK(e && e->saves == 1);
    CHECK_EQ_INT(fx.storage.total_saves, 3);

    /* save_all: every modified chunk, synchronously; an error is reported and the counter kept. */
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    CHECK(edit_change_cell(fx.terrain, fx.u, 1, 95, 1, stone()));
    CHECK(edit_change_cell(fx.terrain, fx.u, 17, 95, 1, stone()));
    CHECK(edit_change_cell(fx.terrain, fx.u, -17, 95, -17, stone()));
    CHECK_EQ_INT(updater_save_all(fx.u), ST_OK);
    CHECK_EQ_INT(fx.storage.total_saves, 6);
    CHECK_EQ_INT(terrain_get_chunk(fx.terrain, -2, -2)->modification_counter, 0);
    CHECK(edit_change_cell(fx.terrain, fx.u, 1, 96, 1, stone()));
    fx.storage.fail_saves = 1;
    CHECK_EQ_INT(updater_save_all(fx.u), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), "disk full");
    CHECK_STR_CONTAINS(st_error_message(), "0,0");
    CHECK_EQ_INT(terrain_get_chunk(fx.terrain, 0, 0)->modification_counter, 1);
    CHECK_EQ_INT(updater_save_all(fx.u), ST_OK);
    CHECK_EQ_INT(fx.storage.total_saves, 7);
    CHECK_EQ_INT(updater_save_all(fx.u), ST_OK); /* nothing modified: nothing written */
    CHECK_EQ_INT(fx.storage.total_saves, 7);
    CHECK_EQ_INT(fx.storage.bad_saves, 0);
    log_set_level(LOG_INFO);
    fixture_free();
}

/* ---- a storage that cannot write ---- */

static FILE *log_capture;

static void capture_log_start(void)
{
    log_capture = tmpfile();
    CHECK(log_capture != NULL);
    log_set_sink(log_capture);
    log_set_level(LOG_WARN);
}

/* Occurrences of `needle` in the log since capture_log_start. */
static int captured_count(const char *needle)
{
    static char text[1 << 20];
    fflush(log_capture);
    long end = ftell(log_capture);
    rewind(log_capture);
    size_t n = fread(text, 1, sizeof text - 1, log_capture);
    text[n] = '\0';
    fseek(log_capture, end, SEEK_SET);
    int count = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) count++;
    return count;
}

static void capture_log_stop(void)
{
    log_set_sink(NULL);
    log_set_level(LOG_INFO);
    fclose(log_capture);
    log_capture = NULL;
}

static UpdaterStats stats_now(void)
{
    UpdaterStats st;
    updater_get_stats(fx.u, &st);
    return st;
}

/* Released while the disk is full: kept in memory, retried at autosaves only, written once on recovery,
 * released then, and loaded back with the edit. */
static void test_storage_release_failing(void)
{
    fixture_init(false, true);
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    CHECK(edit_change_cell(fx.terrain, fx.u, 19, 100, 19, stone()));
    TerrainChunk *c = terrain_get_chunk(fx.terrain, 1, 1);
    run_until_idle();

    capture_log_start();
    fx.storage.fail_saves = 1000000;
    set_loc(0, 100, 0, 2, 4);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.failed_saves, 1);
    CHECK(terrain_get_chunk(fx.terrain, 1, 1) == c); /* not recycled: the same chunk, edits included */
    CHECK_EQ_INT(c->modification_counter, 1);
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 19, 100, 19)), BLOCK_STONE);
    UpdaterStats st = stats_now();
    CHECK_EQ_INT(st.unsaved_kept, 1);
    CHECK_EQ_INT(st.allocated, 81 + 1); /* the new area, and the one chunk that could not be saved */
    CHECK_EQ_INT(captured_count("saving chunk 1,1 failed (ST_ERR_IO): fake region: disk full"), 1);
    CHECK_EQ_INT(captured_count("lost"), 0);

    /* Frames go by: no retry at every exchange. */
    for (int i = 0; i < 5; i++) run_until_idle();
    CHECK_EQ_INT(fx.storage.failed_saves, 1);
    CHECK_EQ_INT(captured_count("saving chunk 1,1 failed"), 1);

    /* An autosave retries it (logged once more, with a summary), and it is kept again. */
    updater_request_autosave(fx.u);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.failed_saves, 2);
    CHECK_EQ_INT(captured_count("saving chunk 1,1 failed"), 2);
    CHECK_EQ_INT(captured_count("1 chunks with edits (one at 1,1) could not be saved"), 1);
    CHECK_EQ_INT(captured_count("fake region: disk full"), 3);
    CHECK(terrain_get_chunk(fx.terrain, 1, 1) == c);
    CHECK_EQ_INT(c->modification_counter, 1);
    CHECK_EQ_INT(fx.storage.total_saves, 0);

    /* The disk has room again: the next autosave writes it exactly once, then it is released. */
    fx.storage.fail_saves = 0;
    updater_request_autosave(fx.u);
    run_until_idle();
    FakeEntry *e = fake_find(&fx.storage, 1, 1);
    CHECK(e && e->saves == 1);
    CHECK_EQ_INT(fx.storage.total_saves, 1);
    CHECK(terrain_get_chunk(fx.terrain, 1, 1) == NULL);
    st = stats_now();
    CHECK_EQ_INT(st.unsaved_kept, 0);
    CHECK_EQ_INT(st.allocated, 81);
    updater_request_autosave(fx.u);
    run_until_idle();
    CHECK_EQ_INT(updater_save_all(fx.u), ST_OK);
    CHECK_EQ_INT(fx.storage.total_saves, 1);

    /* Back: loaded from storage, with the edit. */
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    CHECK(updater_is_ready(fx.u, 0));
    c = terrain_get_chunk(fx.terrain, 1, 1);
    CHECK(c && (c->flags & CHUNK_FLAG_LOADED));
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 19, 100, 19)), BLOCK_STONE);
    CHECK_EQ_INT(fx.storage.bad_saves, 0);
    capture_log_stop();
    fixture_free();
}

/* Comes back to a chunk that could not be saved: the chunk in memory, not a regenerated or stale one.
 * save_all tries it, reports the error and keeps the counter; on recovery it writes it once. */
static void test_storage_return_and_save_all_failing(void)
{
    fixture_init(false, true);
    log_set_level(LOG_SILENT);
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    CHECK(edit_change_cell(fx.terrain, fx.u, 19, 100, 19, stone()));
    TerrainChunk *c = terrain_get_chunk(fx.terrain, 1, 1);
    fx.storage.fail_saves = 1000000;
    set_loc(0, 100, 0, 2, 4);
    run_until_idle();
    CHECK(terrain_get_chunk(fx.terrain, 1, 1) == c);
    CHECK_EQ_INT(fx.storage.loads, 81 + 81);

    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    CHECK(updater_is_ready(fx.u, 0));
    CHECK(terrain_get_chunk(fx.terrain, 1, 1) == c);
    CHECK_EQ_INT(fx.storage.loads, 81 + 81 + 80); /* every chunk but the one kept */
    CHECK_EQ_INT(c->state, CHUNK_STATE_VALID);
    CHECK_EQ_INT(c->modification_counter, 1);
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 19, 100, 19)), BLOCK_STONE);
    CHECK_EQ_INT(stats_now().unsaved_kept, 0); /* wanted again: a live chunk, autosave handles it */

    /* save_all on a failing storage: the error names the chunk and the reason; the edits stay. */
    int failed = fx.storage.failed_saves;
    CHECK_EQ_INT(updater_save_all(fx.u), ST_ERR_IO);
    CHECK_STR_CONTAINS(st_error_message(), "1,1");
    CHECK_STR_CONTAINS(st_error_message(), "disk full");
    CHECK_EQ_INT(fx.storage.failed_saves, failed + 1);
    CHECK_EQ_INT(c->modification_counter, 1);

    /* Away again, still failing: the release tries once more and keeps it; save_all reaches it too. */
    set_loc(0, 100, 0, 2, 4);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.failed_saves, failed + 2);
    CHECK(terrain_get_chunk(fx.terrain, 1, 1) == c);
    CHECK_EQ_INT(stats_now().unsaved_kept, 1);
    CHECK_EQ_INT(updater_save_all(fx.u), ST_ERR_IO);
    CHECK_EQ_INT(fx.storage.failed_saves, failed + 3);
    CHECK_EQ_INT(c->modification_counter, 1);
    CHECK(edit_change_cell(fx.terrain, fx.u, 20, 101, 19, stone())); /* a script may still edit it */
    CHECK_EQ_INT(c->modification_counter, 2);

    /* Recovery through save_all: written exactly once, released at the next exchange. */
    fx.storage.fail_saves = 0;
    CHECK_EQ_INT(updater_save_all(fx.u), ST_OK);
    FakeEntry *e = fake_find(&fx.storage, 1, 1);
    CHECK(e && e->saves == 1);
    CHECK_EQ_INT(fx.storage.total_saves, 1);
    CHECK_EQ_INT(c->modification_counter, 0);
    run_until_idle();
    CHECK(terrain_get_chunk(fx.terrain, 1, 1) == NULL);
    CHECK_EQ_INT(fx.storage.total_saves, 1);

    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    c = terrain_get_chunk(fx.terrain, 1, 1);
    CHECK(c && (c->flags & CHUNK_FLAG_LOADED));
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 19, 100, 19)), BLOCK_STONE);
    CHECK_EQ_INT(cell_contents(terrain_get_cell_value(fx.terrain, 20, 101, 19)), BLOCK_STONE);
    CHECK_EQ_INT(fx.storage.bad_saves, 0);
    log_set_level(LOG_INFO);
    fixture_free();
}

/* More than UPDATE_UNSAVED_ALARM_CHUNKS chunks stuck: all kept, and each autosave says the world cannot
 * be saved. */
static void test_storage_unsaved_alarm(void)
{
    fixture_init(false, true);
    set_loc(0, 0, 0, 6, 8); /* 17 x 17 = 289 chunks */
    run_until_idle();
    int edited = 0;
    for (int cz = -8; cz <= 8; cz++)
        for (int cx = -8; cx <= 8; cx++)
            edited += edit_change_cell(fx.terrain, fx.u, cx * 16 + 3, 120, cz * 16 + 4, stone());
    CHECK_EQ_INT(edited, 289);
    CHECK(edited > UPDATE_UNSAVED_ALARM_CHUNKS);
    run_until_idle();

    capture_log_start();
    fx.storage.fail_saves = 1000000;
    set_loc(0, 200, 0, 2, 4);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.failed_saves, 289);
    CHECK_EQ_INT(stats_now().unsaved_kept, 289);
    CHECK_EQ_INT(captured_count("THE WORLD CANNOT BE SAVED"), 0);
    updater_request_autosave(fx.u);
    run_until_idle();
    CHECK_EQ_INT(fx.storage.failed_saves, 2 * 289);
    CHECK_EQ_INT(captured_count("THE WORLD CANNOT BE SAVED: 289 chunks"), 1);
    CHECK_EQ_INT(captured_count("last storage error: fake region: disk full"), 1);
    int kept = 0;
    for (int cz = -8; cz <= 8; cz++) {
        for (int cx = -8; cx <= 8; cx++) {
            const TerrainChunk *c = terrain_get_chunk(fx.terrain, cx, cz);
            if (c && c->modification_counter == 1 &&
                cell_contents(terrain_get_cell_value(fx.terrain, cx * 16 + 3, 120, cz * 16 + 4)) == BLOCK_STONE)
                kept++;
        }
    }
    CHECK_EQ_INT(kept, 289);
    updater_request_autosave(fx.u);
    run_until_idle();
    CHECK_EQ_INT(captured_count("THE WORLD CANNOT BE SAVED"), 2);
    CHECK_EQ_INT(updater_save_all(fx.u), ST_ERR_IO);
    CHECK_EQ_INT(fx.storage.failed_saves, 4 * 289);
    CHECK_EQ_INT(fx.storage.total_saves, 0);
    updater_destroy(fx.u);
    fx.u = NULL;
    CHECK_EQ_INT(captured_count("289 chunks with unsaved edits at shutdown"), 1);
    capture_log_stop();
    fixture_free();
}

static void sleep_ms(int ms)
{
    struct timespec ts = { 0, ms * 1000000L };
    nanosleep(&ts, NULL);
}

/* Exchanges (threaded worker) until cond() holds; false after ~20 s. */
static bool wait_for(bool (*cond)(void))
{
    for (int i = 0; i < 20000; i++) {
        updater_exchange(fx.u, &fx.cb);
        if (cond()) return true;
        sleep_ms(1);
    }
    return false;
}

static bool ready_and_stuck(void) { return updater_is_ready(fx.u, 0) && stats_now().unsaved_kept == 1; }
static bool ready_and_released(void) { return updater_is_ready(fx.u, 0) && !terrain_get_chunk(fx.terrain, 1, 1); }
static bool ready(void) { return updater_is_ready(fx.u, 0); }

/* The same with the worker on its thread (TSan checks the hand-overs). */
static void test_storage_release_failing_threaded(void)
{
    fixture_init(true, true);
    log_set_level(LOG_SILENT);
    set_loc(0, 0, 0, 2, 4);
    CHECK(wait_for(ready));
    CHECK(edit_change_cell(fx.terrain, fx.u, 19, 100, 19, stone()));
    TerrainChunk *c = terrain_get_chunk(fx.terrain, 1, 1);
    CHECK_EQ_INT(updater_save_all(fx.u), ST_OK); /* waits for the worker: storage fields are ours now */
    fx.storage.fail_saves = 1000000;
    CHECK(edit_change_cell(fx.terrain, fx.u, 20, 100, 19, stone()));
    set_loc(0, 100, 0, 2, 4);
    CHECK(wait_for(ready_and_stuck));
    CHECK(terrain_get_chunk(fx.terrain, 1, 1) == c);
    CHECK_EQ_INT(c->modification_counter, 1);

    CHECK_EQ_INT(updater_save_all(fx.u), ST_ERR_IO);
    fx.storage.fail_saves = 0;
    updater_request_autosave(fx.u);
    CHECK(wait_for(ready_and_released));
    CHECK_EQ_INT(updater_save_all(fx.u), ST_OK);
    updater_destroy(fx.u); /* joins: the storage counters below are now ours */
    fx.u = NULL;
    FakeEntry *e = fake_find(&fx.storage, 1, 1);
    CHECK(e && e->saves == 2); /* once before the failures, once after */
    CHECK(e && cell_contents(fake_saved_cell(e, 4, 100, 3)) == BLOCK_STONE);
    CHECK_EQ_INT(fx.storage.failed_saves, 2);
    CHECK_EQ_INT(fx.storage.bad_saves, 0);
    log_set_level(LOG_INFO);
    fixture_free();
}

/* Defect 2: an I/O error while loading is not damage. The chunk stays NotLoaded (never generated over, never
 * flagged damaged, so never saved over its record) and is retried at the next change; once the storage reads
 * again it loads normally. */
static void test_storage_io_error(void)
{
    fixture_init(false, true);
    fx.storage.io_error_loads = 1000;
    fx.storage.io_cx = 2;
    fx.storage.io_cz = 0;
    log_set_level(LOG_SILENT);
    set_loc(0, 0, 0, 2, 4);
    run_until_idle();
    TerrainChunk *c = terrain_get_chunk(fx.terrain, 2, 0);
    CHECK(c != NULL);
    if (!c) return;
    CHECK(fx.storage.io_failed_loads >= 1);
    CHECK(fx.storage.io_failed_loads < 50);   /* retried at changes, not in a loop */
    CHECK_EQ_INT(c->state, CHUNK_STATE_NOT_LOADED);
    CHECK(!(c->flags & CHUNK_FLAG_DAMAGED_ON_DISK));
    CHECK(!(c->flags & CHUNK_FLAG_LOADED));
    /* Not editable while unread. */
    CHECK(!edit_change_cell(fx.terrain, fx.u, 34, 90, 2, stone()));
    updater_save_all(fx.u);
    CHECK_EQ_INT(fx.storage.total_saves, 0);

    fx.storage.io_error_loads = 0;   /* the disk reads again */
    updater_request_autosave(fx.u);
    run_until_idle();
    CHECK_EQ_INT(c->state, CHUNK_STATE_VALID);
    CHECK(!(c->flags & CHUNK_FLAG_DAMAGED_ON_DISK));
    CHECK_EQ_INT(fx.storage.bad_saves, 0);
    log_set_level(LOG_INFO);
    fixture_free();
}

int main(void)
{
    RUN(test_storage_release_and_reload);
    RUN(test_storage_damaged);
    RUN(test_storage_io_error);
    RUN(test_storage_autosave_and_save_all);
    RUN(test_storage_release_failing);
    RUN(test_storage_return_and_save_all_failing);
    RUN(test_storage_unsaved_alarm);
    RUN(test_storage_release_failing_threaded);
    return check_report();
}
