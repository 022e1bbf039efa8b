/* test_update_storage.c — the update worker's persistence through a fake in-memory ChunkStorage: an
 * edited chunk is saved exactly once on release and comes back with the edit; an unchanged reload is not
 * written again; a damaged stored copy is logged, generated in memory, never written back until the
 * player edits it; autosave hands counters over, gives them back on failure, survives a release racing
 * it; save_all writes every modified chunk and reports the first error. */
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
    if (e) CHECK_EQ_INT(cell_contents(e->cells[CHUNK_INDEX(3, 100, 3)]), BLOCK_STONE);

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
    CHECK(e && cell_contents(e->cells[CHUNK_INDEX(1, 90, 1)]) == BLOCK_STONE &&
          cell_contents(e->cells[CHUNK_INDEX(2, 90, 1)]) == BLOCK_STONE);
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

int main(void)
{
    RUN(test_storage_release_and_reload);
    RUN(test_storage_damaged);
    RUN(test_storage_autosave_and_save_all);
    return check_report();
}
