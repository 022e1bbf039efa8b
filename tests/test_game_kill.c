/* test_game_kill.c — the real game, killed with SIGKILL at random moments and relaunched on the same world;
 * after every kill the saved world is checked cell by cell against what the game said it saved.
 *
 * Design: each launch plays a script in a flat world (--flat: every column is bedrock, stone, dirt and grass
 * at y 64, air above) with --autosave 1: fly on, then cycles of "teleport over a fresh column, look down,
 * place a block (stone, planks or glass by cycle) on the grass at y 65, save". Cycle k uses its own column,
 * so every edit ever made is known. The script's save logs "FILE:LINE: saved world", and a save returns
 * only when its data is durable, so the edits of every cycle up to the last logged save must be in the
 * world; the next cycle or two may or may not be (autosave, or a save that finished unlogged); nothing else
 * may differ from the flat world. After each kill the world folder is opened through the serializer (as the
 * game does) and every chunk the edits touch is loaded and compared cell by cell: a damaged or unreadable
 * chunk, a lost durable edit or any other difference fails. The next launch continues with fresh columns.
 * Usage: test_game_kill STRATA_BINARY KILLS (STRATA_KILL_COUNT overrides KILLS: the long mode). Exit 77
 * when no GL context can be made (SDL_VIDEODRIVER=offscreen needs Mesa's EGL). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "strata/block.h"
#include "strata/chunk.h"
#include "strata/log.h"
#include "strata/serializer.h"

#define CYCLES_PER_RUN 20
#define MAX_CYCLES 200000
#define FLAT_HEIGHT 64
#define ROW 32                      /* columns per row of the edit grid (every other block) */

enum { EDIT_NONE = 0, EDIT_MAYBE, EDIT_DURABLE };
static unsigned char edit_state[MAX_CYCLES];
static int cycle_next;             /* the first column the next launch uses */
static int block_ids[3];
static BlockRegistry *blocks;
static char root[256], world[300], script_path[300], log_path[300];
static char log_text[1 << 20];

static void cycle_cell(int k, int *x, int *z)
{
    *x = (k % ROW) * 2 + 1;
    *z = (k / ROW) * 2 + 1;
}

static int flat_block(int y)
{
    if (y == 0) return BLOCK_BEDROCK;
    if (y < FLAT_HEIGHT - 3) return BLOCK_STONE;
    if (y < FLAT_HEIGHT) return BLOCK_DIRT;
    if (y == FLAT_HEIGHT) return BLOCK_GRASS;
    return BLOCK_AIR;
}

static uint64_t rng_state = 0x5EED5EEDull;
static uint32_t rng_next(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static void write_script(int base)
{
    FILE *f = fopen(script_path, "w");
    if (!f) abort();
    int x, z;
    cycle_cell(base, &x, &z);
    fprintf(f, "fly on\nteleport %d.5 66 %d.5\nwait_ready\n", x, z);   /* lines 1-3 */
    for (int j = 0; j < CYCLES_PER_RUN; j++) {                          /* cycle j: lines 4j+4 .. 4j+7 */
        int k = base + j;
        cycle_cell(k, &x, &z);
        static const char *names[3] = {"stone", "planks", "glass"};
        fprintf(f, "teleport %d.5 66 %d.5\nlook 0 -90\nplace %s\nsave\n", x, z, names[k % 3]);
    }
    fprintf(f, "quit\n");
    fclose(f);
}

static int run_game_once(const char *strata, bool create, long delay_ms);

/* Launches the game; kills it after `delay_ms` (0: lets it finish). Returns the wait status. A launch that
 * could not exec (exit 127: the binary is being relinked by a build) is retried. */
static int run_game(const char *strata, bool create, long delay_ms)
{
    int status = run_game_once(strata, create, delay_ms);
    for (int retry = 0; retry < 10 && WIFEXITED(status) && WEXITSTATUS(status) == 127; retry++) {
        sleep(2);
        status = run_game_once(strata, create, delay_ms);
    }
    return status;
}

static int run_game_once(const char *strata, bool create, long delay_ms)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        setenv("LSAN_OPTIONS", "exitcode=0", 0);
        const char *argv[20] = {strata, "--flat", "--view-distance", "2", "--width", "320", "--height", "200",
                                "--autosave", "1", "--world", world, "--script", script_path, NULL, NULL};
        if (create) argv[14] = "--new";
        alarm(120);
        execv(strata, (char **)argv);
        _exit(127);
    }
    if (delay_ms > 0) {
        struct timespec ts = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    log_text[0] = 0;
    FILE *f = fopen(log_path, "rb");
    if (f) {
        size_t n = fread(log_text, 1, sizeof log_text - 1, f);
        log_text[n] = 0;
        fclose(f);
    }
    return status;
}

/* The last script line whose save was logged (0: none). */
static int last_saved_line(void)
{
    int last = 0;
    const char *p = log_text;
    char needle[320];
    snprintf(needle, sizeof needle, "%s:", script_path);
    while ((p = strstr(p, needle)) != NULL) {
        p += strlen(needle);
        int line = atoi(p);
        const char *colon = strchr(p, ':');
        if (colon && !strncmp(colon, ": saved world", 13) && line > last) last = line;
    }
    return last;
}

/* Records what this launch (cycles base..) made durable; returns the next free column. */
static int account_run(int base, int saved_line)
{
    int durable_end = saved_line >= 7 ? base + (saved_line - 7) / 4 + 1 : base;   /* cycles < durable_end */
    for (int k = base; k < durable_end; k++) edit_state[k] = EDIT_DURABLE;
    for (int k = durable_end; k < durable_end + 2 && k < base + CYCLES_PER_RUN; k++) edit_state[k] = EDIT_MAYBE;
    return durable_end + 2;
}

static int edit_block(int k) { return block_ids[k % 3]; }

/* Loads every chunk the edits so far touch and compares it cell by cell. Returns the failures. */
static int verify_world(int *durable_checked)
{
    WorldMeta meta;
    Serializer *s = NULL;
    if (serializer_open(world, false, &meta, blocks, &s) != ST_OK) {
        fprintf(stderr, "  reopen: %s\n", st_error_message());
        return 1;
    }
    const ChunkStorage *st = serializer_chunk_storage(s);
    static TerrainChunk chunk;
    int bad = 0;
    int max_z = (cycle_next / ROW) * 2 + 2;
    for (int cz = 0; cz <= max_z / 16; cz++) {
        for (int cx = 0; cx <= (ROW * 2) / 16; cx++) {
            chunk_reset(&chunk, cx, cz);
            StResult rc = st->load(st->user, &chunk);
            bool stored = rc == ST_OK;
            if (rc != ST_OK && rc != ST_ERR_NOT_FOUND) {
                fprintf(stderr, "  chunk %d,%d: %s: %s\n", cx, cz, st_result_name(rc), st_error_message());
                bad++;
                continue;
            }
            for (int z = 0; z < 16; z++)
                for (int x = 0; x < 16; x++) {
                    int wx = cx * 16 + x, wz = cz * 16 + z;
                    int k = -1;
                    if ((wx & 1) && (wz & 1) && wx < ROW * 2) k = (wz / 2) * ROW + wx / 2;
                    for (int y = 0; y < 256; y++) {
                        int want = flat_block(y);
                        int got = stored ? chunk_get_contents(&chunk, x, y, z) : want;
                        bool ok = got == want;
                        if (k >= 0 && k < MAX_CYCLES && y == FLAT_HEIGHT + 1) {
                            if (edit_state[k] == EDIT_DURABLE) {
                                ok = got == edit_block(k);
                                (*durable_checked)++;
                            } else if (edit_state[k] == EDIT_MAYBE) {
                                ok = ok || got == edit_block(k);
                            }
                        }
                        if (!ok && ++bad <= 10)
                            fprintf(stderr, "  cell %d,%d,%d: block %d, expected %d (edit %d, state %d)\n", wx, y, wz,
                                    got, want, k, k >= 0 ? edit_state[k] : -1);
                    }
                }
        }
    }
    serializer_close(s);
    return bad;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(path);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_game_kill STRATA_BINARY [KILLS]\n");
        return 2;
    }
    const char *strata = argv[1];
    int kills = argc > 2 ? atoi(argv[2]) : 4;
    if (getenv("STRATA_KILL_COUNT")) kills = atoi(getenv("STRATA_KILL_COUNT"));
    if (!getenv("SDL_VIDEODRIVER")) setenv("SDL_VIDEODRIVER", "offscreen", 1);
    log_set_level(LOG_WARN);
    if (block_registry_load(STRATA_ASSET_DIR "/blocks.json", &blocks) != ST_OK) {
        fprintf(stderr, "%s\n", st_error_message());
        return 1;
    }
    block_ids[0] = block_registry_find(blocks, "stone");
    block_ids[1] = block_registry_find(blocks, "planks");
    block_ids[2] = block_registry_find(blocks, "glass");
    snprintf(root, sizeof root, "/tmp/strata_game_kill_XXXXXX");
    if (!mkdtemp(root)) return 1;
    snprintf(world, sizeof world, "%s/world", root);
    snprintf(script_path, sizeof script_path, "%s/kill.script", root);
    snprintf(log_path, sizeof log_path, "%s/game.log", root);
    rng_state ^= (uint64_t)time(NULL);

    /* A first launch that runs to its end: it creates the world and shows how long a launch takes. */
    write_script(0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = run_game(strata, true, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (strstr(log_text, "cannot create an OpenGL") || strstr(log_text, "cannot initialise SDL video") ||
            strstr(log_text, "cannot create the window")) {
            fprintf(stderr, "skip: no GL context here:\n%s\n", log_text);
            return 77;
        }
        fprintf(stderr, "the first launch failed (status %d):\n%s\n", status, log_text);
        return 1;
    }
    long full_ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    cycle_next = account_run(0, last_saved_line());
    CHECK_EQ_INT(cycle_next, CYCLES_PER_RUN + 2);   /* every save of a full run was logged */
    int durable = 0, bad = verify_world(&durable);
    CHECK_EQ_INT(bad, 0);
    printf("a full launch took %ld ms\n", full_ms);

    int failures = 0, mid_save = 0;
    for (int i = 0; i < kills && cycle_next + CYCLES_PER_RUN < MAX_CYCLES; i++) {
        int base = cycle_next;
        write_script(base);
        long delay = 50 + (long)(rng_next() % (uint32_t)(full_ms > 200 ? full_ms : 200));
        status = run_game(strata, false, delay);
        int saved = last_saved_line();
        if (WIFSIGNALED(status) && saved >= 7) mid_save++;
        if (!WIFSIGNALED(status) && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
            fprintf(stderr, "launch %d ended with status %d:\n%s\n", i, status, log_text);
            failures++;
        }
        cycle_next = account_run(base, saved);
        int checked = 0;
        bad = verify_world(&checked);
        if (bad) {
            fprintf(stderr, "after kill %d (at %ld ms, last save logged at line %d): %d bad cells\n", i, delay, saved, bad);
            failures++;
        }
        durable = checked;
    }
    CHECK_EQ_INT(failures, 0);
    printf("game kill: %d kills (%d after at least one save of the launch), %d durable edits checked, %d columns used\n",
           kills, mid_save, durable, cycle_next);
    block_registry_destroy(blocks);
    if (failures == 0) nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return check_report();
}
