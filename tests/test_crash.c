/* test_crash.c — kills a writer process (crash_writer) with SIGKILL at random moments, hundreds of times, and
 * after every kill checks that each chunk reads back as exactly its last completed version or, for the one
 * save in flight, its new version: never garbage, never an older version, never a damaged record.
 *
 * Usage: test_crash PATH_TO_CRASH_WRITER [KILLS]. Kill moments are drawn so that some land while the writer
 * starts (opening the world, creating region files) and most while it saves (record writes, directory
 * commits, compactions); the latter are timed from the writer's logged progress, so a slow (sanitizer)
 * build is killed as often mid-save as a fast one. Each restart continues after the last completed step. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "test_util.h"
#include "crash_chunks.h"
#include "strata/fileio.h"
#include "strata/log.h"
#include "strata/serializer.h"

static char root[256], world[320];
static BlockRegistry *blocks;
static TerrainChunk expected, loaded;
static long versions[CRASH_CHUNKS];   /* last completed version of each chunk, 0 = never saved */

static uint64_t rng_state = 0xC0FFEE1234567ull;
static uint32_t rng_next(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* The last "B k" and "D k" of the progress log (a torn last line cannot happen: one write per line). */
static void read_progress(long *begun, long *done)
{
    char path[400];
    snprintf(path, sizeof path, "%s/progress.log", world);
    *begun = *done = 0;
    FILE *f = fopen(path, "r");
    if (!f) return;
    char tag;
    long step;
    while (fscanf(f, " %c %ld", &tag, &step) == 2) {
        if (tag == 'B') *begun = step;
        else if (tag == 'D') *done = step;
    }
    fclose(f);
}

static long log_size(void)
{
    char path[400];
    snprintf(path, sizeof path, "%s/progress.log", world);
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

static bool same_cells(const TerrainChunk *a, const TerrainChunk *b)
{
    const int32_t *ca = chunk_cell_view_const(a).cells, *cb = chunk_cell_view_const(b).cells;
    return memcmp(ca, cb, CHUNK_CELLS * sizeof(int32_t)) == 0;
}

/* Checks every chunk against versions[] (and the in-flight step). Returns the number of bad chunks. */
static int verify_world(long in_flight, int *in_flight_landed)
{
    WorldMeta meta;
    Serializer *s = NULL;
    if (serializer_open(world, false, &meta, blocks, &s) != ST_OK) {
        fprintf(stderr, "  reopen: %s\n", st_error_message());
        return CRASH_CHUNKS;
    }
    const ChunkStorage *st = serializer_chunk_storage(s);
    int in_flight_chunk = in_flight ? crash_step_chunk(in_flight) : -1;
    int bad = 0;
    for (int i = 0; i < CRASH_CHUNKS; i++) {
        int cx, cz;
        crash_chunk_coords(i, &cx, &cz);
        chunk_reset(&loaded, cx, cz);
        StResult rc = st->load(st->user, &loaded);
        bool ok = false;
        if (rc == ST_ERR_NOT_FOUND) {
            ok = versions[i] == 0;
        } else if (rc == ST_OK) {
            if (versions[i]) {
                crash_make_chunk(&expected, i, versions[i]);
                ok = same_cells(&expected, &loaded);
            }
            if (!ok && i == in_flight_chunk) {
                crash_make_chunk(&expected, i, in_flight);
                ok = same_cells(&expected, &loaded);
                if (ok) (*in_flight_landed)++;
            }
        } else {
            fprintf(stderr, "  chunk %d,%d: %s: %s\n", cx, cz, st_result_name(rc), st_error_message());
        }
        if (!ok) {
            bad++;
            fprintf(stderr, "  chunk %d (%d,%d): expected version %ld%s (in flight %ld), load %s\n", i, cx, cz, versions[i],
                    i == in_flight_chunk ? " or the in-flight one" : "", in_flight, st_result_name(rc));
        }
    }
    serializer_close(s);
    return bad;
}

static int count_compactions(const char *log_path)
{
    FILE *f = fopen(log_path, "r");
    if (!f) return 0;
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (strstr(line, ": compacted ")) n++;
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_crash PATH_TO_CRASH_WRITER [KILLS]\n");
        return 2;
    }
    const char *writer = argv[1];
    int kills = argc > 2 ? atoi(argv[2]) : 250;
    if (!test_make_temp_dir("crash", root, sizeof root)) return 1;
    snprintf(world, sizeof world, "%s/world", root);
    if (block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        return 1;
    }
    log_set_level(LOG_WARN);
    WorldMeta meta;
    memset(&meta, 0, sizeof meta);
    world_settings_default(&meta.settings);
    snprintf(meta.generator_name, sizeof meta.generator_name, "gen24");
    Serializer *s = NULL;
    CHECK_EQ_INT(serializer_open(world, true, &meta, blocks, &s), ST_OK);
    serializer_close(s);

    char writer_log[400];
    snprintf(writer_log, sizeof writer_log, "%s/writer.log", root);
    long next_step = 1, applied = 0;
    int bad_total = 0, landed = 0, killed = 0, early_exits = 0;
    time_t started = time(NULL);
    for (int round = 0; round < kills; round++) {
        char step_text[32];
        snprintf(step_text, sizeof step_text, "%ld", next_step);
        pid_t pid = fork();
        if (pid == 0) {
            FILE *out = freopen(writer_log, "a", stderr);
            (void)out;
            execl(writer, writer, world, step_text, (char *)NULL);
            _exit(127);
        }
        /* 20% of kills within the first 3 ms (start-up, region creation); the rest once the writer has
         * logged 1..200 more bytes of progress (a few saves, however slow this build is), plus 0..4 ms. */
        if (rng_next() % 5 == 0) {
            usleep(rng_next() % 3000);
        } else {
            long target = log_size() + 1 + (long)(rng_next() % 200);
            for (int wait = 0; wait < 20000 && log_size() < target; wait++) usleep(100);
            usleep(rng_next() % 4000);
        }
        kill(pid, SIGKILL);
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) killed++;
        else early_exits++;

        long begun, done;
        read_progress(&begun, &done);
        for (long k = applied + 1; k <= done; k++) versions[crash_step_chunk(k)] = k;
        applied = done > applied ? done : applied;
        long in_flight = begun > done ? begun : 0;
        int bad = verify_world(in_flight, &landed);
        if (bad) fprintf(stderr, "round %d: %d chunks wrong after a kill at step %ld\n", round, bad, begun);
        bad_total += bad;
        next_step = applied + 1;
    }
    int compactions = count_compactions(writer_log);
    fprintf(stderr, "%d kills in %ld s: %ld steps completed, %d in-flight saves had landed, %d compactions, "
                    "%d writer exits\n", killed, (long)(time(NULL) - started), applied, landed, compactions, early_exits);
    CHECK_EQ_INT(bad_total, 0);
    CHECK_EQ_INT(early_exits, 0);
    CHECK(killed >= kills);
    CHECK(applied > 4L * kills);            /* the writer made real progress between kills */
    if (kills >= 200) CHECK(compactions > 0); /* long runs also kill around compactions */

    block_registry_destroy(blocks);
    if (check_failed_ == 0) test_remove_tree(root);
    else fprintf(stderr, "world kept for inspection: %s\n", world);
    return check_report();
}
