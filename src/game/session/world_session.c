/* world_session.c — opening, starting, saving and closing the world the game plays in.
 *
 * Design: a world folder's world.json is the truth for a resumed world (seed, settings, player, time);
 * flags only shape new worlds, and a flag that disagrees with a resumed world is reported, not applied.
 * Without --world the world lives in the worlds folder as seed-S (seed-S-flat for flat worlds), so a
 * player's work is never dropped; --no-save plays an unsaved session world: no storage, nothing written. The player's starting place for a
 * new world is the generator's coarse spawn, a little above the surface (the app drops the player to the
 * ground once the chunk there is Valid). */
#include "world_session.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daytime.h"
#include "session/game_structures.h"
#include "strata/error.h"
#include "strata/fileio.h"
#include "strata/log.h"
#include "strata/rng.h"
#include "strata/serializer.h"
#include "strata/spawn.h"

#define WS_TAG "game"

StResult world_session_load_blocks(WorldSession *ws, const char *asset_dir)
{
    char path[WORLD_SESSION_PATH_MAX];
    snprintf(path, sizeof path, "%s/blocks.json", asset_dir);
    StResult rc = block_registry_load(path, &ws->blocks);
    if (rc != ST_OK) return st_fail_context(rc, "cannot load the block registry");
    /* plants' quads fit their tiles' drawn boxes, ice gets a far copy; without the atlas neither (and the
     * renderer reports the missing atlas itself) */
    snprintf(path, sizeof path, "%s/textures/atlas.png", asset_dir);
    if (block_registry_fit_tiles(ws->blocks, path) != ST_OK)
        log_warn(WS_TAG, "%s; plants keep whole quads, ice has no far copy", st_error_message());
    return ST_OK;
}

/* A seed for a world started without --seed: small enough to type back in with --seed. */
static uint64_t random_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = rng_mix64((uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32));
    return x & 0x7FFFFFFFull;
}

/* A bare name ("mine") lives in the default worlds folder; anything with a slash is a path. Nothing is made here:
 * creating a world makes its folder and the parents it lacks (serializer_open). */
static StResult resolve_world_dir(const char *arg, char *out, size_t size)
{
    if (strchr(arg, '/') || !strcmp(arg, ".") || !strcmp(arg, "..")) {
        if ((size_t)snprintf(out, size, "%s", arg) >= size) return st_fail(ST_ERR_ARG, "--world: path too long: %s", arg);
        return ST_OK;
    }
    char base[WORLD_SESSION_PATH_MAX];
    StResult rc = serializer_default_worlds_dir(base, sizeof base);
    if (rc != ST_OK) return rc;
    if ((size_t)snprintf(out, size, "%s/%s", base, arg) >= size) return st_fail(ST_ERR_ARG, "--world: path too long: %s", arg);
    return ST_OK;
}

/* A folder that exists, is not empty and has no world.json is someone else's: never write a world into it. */
static StResult refuse_foreign_folder(const char *dir)
{
    if (!fileio_is_dir(dir)) return ST_OK;
    char meta[WORLD_SESSION_PATH_MAX + 16];
    snprintf(meta, sizeof meta, "%s/world.json", dir);
    if (fileio_exists(meta)) return ST_OK;
    DIR *d = opendir(dir);
    if (!d) return st_fail(ST_ERR_IO, "--world %s: cannot read the folder: %s", dir, strerror(errno));
    bool empty = true;
    struct dirent *e;
    while (empty && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) empty = false;
    closedir(d);
    if (empty) return ST_OK;
    return st_fail(ST_ERR_EXISTS, "--world %s: the folder is not empty and is not a Strata world (no world.json); "
                   "refusing to write a world into it", dir);
}

static void init_new_meta(WorldSession *ws)
{
    WorldMeta *m = &ws->meta;
    memset(m, 0, sizeof *m);
    m->format_version = WORLD_FORMAT_VERSION;
    m->settings = ws->generator->settings;   /* as the generator completed them (a heightmap's hash) */
    snprintf(m->generator_name, sizeof m->generator_name, "%s", ws->generator->name);
    m->generator_version = ws->generator->version;
    const Generator *g = ws->generator;
    int sx = 0, sz = 0;
    g->find_coarse_spawn_position(g, &sx, &sz);
    spawn_coarse_start(g, sx, sz, &sx, &sz); /* a first view worth it, within a few hundred blocks */
    float h = g->calculate_height(g, (float)sx + 0.5f, (float)sz + 0.5f);
    float top = fmaxf(h, (float)g->ocean_level(g));
    if (!(top >= 0.0f && top < 250.0f)) top = 100.0f;
    m->player_position[0] = sx + 0.5;
    m->player_position[1] = floor(top) + 3.0;
    m->player_position[2] = sz + 0.5;
    m->time_of_day = DAYTIME_START;
}

/* A heightmap world remembers its map files by absolute path, so it resumes from any folder. */
static StResult absolute_path(char *path, const char *what)
{
    if (!path[0] || path[0] == '/') return ST_OK;
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) return st_fail(ST_ERR_IO, "%s %s: %s", what, path, strerror(errno));
    size_t n = strlen(resolved);
    if (n >= WORLD_SETTINGS_PATH_MAX) return st_fail(ST_ERR_ARG, "%s %s: path too long", what, path);
    memcpy(path, resolved, n + 1);
    return ST_OK;
}

static StResult absolute_map_paths(WorldSettings *s)
{
    StResult rc;
    if ((rc = absolute_path(s->heightmap, "--heightmap")) != ST_OK) return rc;
    if ((rc = absolute_path(s->biome_map, "--biome-map")) != ST_OK) return rc;
    return absolute_path(s->splat_rules, "--splat-rules");
}

/* "seed-S-" + the map's file name without its extension: one world per seed and map. */
static void map_world_suffix(const WorldSettings *s, char *name, size_t size)
{
    const char *base = strrchr(s->heightmap, '/');
    base = base ? base + 1 : s->heightmap;
    size_t len = strlen(name), n = strcspn(base, ".");
    for (size_t i = 0; i < n && len + 1 < size; i++) name[len++] = isalnum((unsigned char)base[i]) ? base[i] : '_';
    name[len] = '\0';
}

StResult world_session_open(WorldSession *ws, const CliOptions *opts, const char *asset_dir)
{
    StResult rc;
    WorldSettings settings = opts->world_settings;   /* defaults, or --heightmap and its companions */
    settings.seed = opts->seed_given ? opts->seed : random_seed();
    if (opts->flat) settings.mode = TERRAIN_MODE_FLAT;
    if ((rc = absolute_map_paths(&settings)) != ST_OK) return rc;

    bool create = false;
    char default_name[128];
    const char *world_name = opts->world_dir;
    if (!world_name && !opts->no_save) {
        bool layered = false;
        world_settings_generator_parse(settings.generator, &layered);
        snprintf(default_name, sizeof default_name, "seed-%llu%s%s%s", (unsigned long long)settings.seed,
                 opts->flat ? "-flat" : "", layered ? "-layered" : "", settings.mode == TERRAIN_MODE_HEIGHTMAP ? "-" : "");
        if (settings.mode == TERRAIN_MODE_HEIGHTMAP) map_world_suffix(&settings, default_name, sizeof default_name);
        world_name = default_name;
    }
    if (world_name) {
        if ((rc = resolve_world_dir(world_name, ws->dir, sizeof ws->dir)) != ST_OK) return rc;
        if ((rc = refuse_foreign_folder(ws->dir)) != ST_OK) return rc;
        if (!opts->new_world) {
            rc = serializer_open(ws->dir, false, &ws->meta, ws->blocks, &ws->serializer);
            if (rc == ST_ERR_NOT_FOUND && opts->no_save)
                return st_fail(ST_ERR_ARG, "--no-save --world %s: there is no world there to look at (--no-save "
                                                 "creates nothing)", ws->dir);
            if (rc == ST_OK) {
                ws->resumed = true;
                if (opts->seed_given && ws->meta.settings.seed != opts->seed)
                    log_warn(WS_TAG, "world %s has seed %llu: --seed %s ignored", ws->dir,
                             (unsigned long long)ws->meta.settings.seed, opts->seed_text);
                if (opts->world_settings_given)
                    log_warn(WS_TAG, "world %s exists: its own map settings are kept (--heightmap & co. ignored)",
                             ws->dir);
                if (opts->flat && ws->meta.settings.mode != TERRAIN_MODE_FLAT)
                    log_warn(WS_TAG, "world %s is a %s world: --flat ignored", ws->dir,
                             terrain_mode_name(ws->meta.settings.mode));
                settings = ws->meta.settings;
            } else if (rc == ST_ERR_NOT_FOUND && opts->world_dir) {
                /* A named world that is not there is a typo or a moved folder: make nothing (a bad value, exit 2). */
                return st_fail(ST_ERR_ARG, "--world %s: there is no world there (add --new to create one)", ws->dir);
            } else if (rc == ST_ERR_NOT_FOUND) {
                create = true;   /* the seed's own default world folder */
            } else {
                return st_fail_context(rc, "cannot open world %s", ws->dir);
            }
        } else {
            create = true;
        }
    }

    char worldgen[WORLD_SESSION_PATH_MAX];
    snprintf(worldgen, sizeof worldgen, "%s/worldgen.json", asset_dir);
    /* A resumed world keeps the generator version it was made with, so new chunks match its old ones. */
    if (ws->resumed) {
        /* the same rule as strata-world verify (generator_create_for_world) */
        rc = generator_create_for_world(&settings, ws->meta.generator_name, ws->meta.generator_version, ws->blocks,
                                        worldgen, &ws->generator);
        if (rc != ST_OK) return st_fail_context(rc, "cannot open world %s", ws->dir);
    } else if ((rc = generator_create_version(&settings, ws->blocks, worldgen, 0, &ws->generator)) != ST_OK) {
        return st_fail_context(rc, "cannot create the world generator");
    }
    ws->terrain = terrain_create();
    if (!ws->terrain) return st_fail(ST_ERR_NOMEM, "cannot allocate the Terrain");

    if (!ws->resumed) init_new_meta(ws);
    /* A text seed is echoed with the number it hashes to, so the player can share either. */
    char seed_note[300] = "";
    if (opts->seed_given && opts->seed_text && !ws->resumed) {
        char digits[32];
        snprintf(digits, sizeof digits, "%lld", (long long)settings.seed);
        char udigits[32];
        snprintf(udigits, sizeof udigits, "%llu", (unsigned long long)settings.seed);
        if (strcmp(opts->seed_text, digits) != 0 && strcmp(opts->seed_text, udigits) != 0)
            snprintf(seed_note, sizeof seed_note, " from the text seed \"%.200s\"", opts->seed_text);
    }
    if (create) {
        rc = serializer_open(ws->dir, true, &ws->meta, ws->blocks, &ws->serializer);
        if (rc != ST_OK) return st_fail_context(rc, "cannot create world %s", ws->dir);
        log_info(WS_TAG, "created world %s (seed %llu%s)", ws->dir, (unsigned long long)settings.seed, seed_note);
    } else if (ws->resumed && opts->no_save) {
        ws->read_only = true;
        log_info(WS_TAG, "opened world %s read-only (seed %llu): nothing is saved (--no-save)", ws->dir,
                 (unsigned long long)settings.seed);
    } else if (ws->resumed) {
        log_info(WS_TAG, "opened world %s (seed %llu)", ws->dir, (unsigned long long)settings.seed);
    } else {
        log_info(WS_TAG, "seed %llu%s (%s); this world is not saved (--no-save)",
                 (unsigned long long)settings.seed, seed_note, terrain_mode_name(settings.mode));
    }
    return ST_OK;
}

/* Read-only storage: chunks load from the world folder; a save is dropped (reported as done, so the worker
 * releases the chunk as if it had been written). */
static StResult read_only_load(void *user, TerrainChunk *chunk)
{
    const ChunkStorage *inner = user;
    return inner->load(inner->user, chunk);
}

static StResult read_only_save(void *user, const TerrainChunk *chunk)
{
    (void)user;
    (void)chunk;
    return ST_OK;
}

StResult world_session_start(WorldSession *ws, int sky_light)
{
    const ChunkStorage *storage = ws->serializer ? serializer_chunk_storage(ws->serializer) : NULL;
    if (storage && ws->read_only) {
        ws->read_only_storage.user = (void *)storage;
        ws->read_only_storage.load = read_only_load;
        ws->read_only_storage.save = read_only_save;
        storage = &ws->read_only_storage;
    }
    UpdaterConfig cfg = {
        .terrain = ws->terrain,
        .generator = ws->generator,
        .blocks = ws->blocks,
        .storage = storage,
        .sky_light = sky_light,
        .threaded = true,
        .threads = ws->threads,
    };
    StResult rc = updater_create(&cfg, &ws->updater);
    if (rc != ST_OK) return st_fail_context(rc, "cannot start the update worker");
    EditorConfig ec = { .terrain = ws->terrain, .updater = ws->updater, .blocks = ws->blocks,
                        .history_bytes = ws->history_bytes };
    rc = editor_create(&ec, &ws->editor);
    if (rc != ST_OK) return st_fail_context(rc, "cannot create the editor");
    return ST_OK;
}

StResult world_session_save_meta(WorldSession *ws)
{
    if (!ws->serializer || ws->read_only) return ST_OK;
    return serializer_save_meta(ws->serializer, &ws->meta);
}

StResult world_session_save_all(WorldSession *ws)
{
    if (!ws->serializer || ws->read_only) return ST_OK;
    StResult rc = ws->updater ? updater_save_all(ws->updater) : ST_OK;
    if (rc == ST_OK) return serializer_save_meta(ws->serializer, &ws->meta);
    /* The chunks' error is the one to report (the player's edits); world.json is still written, and its own
     * failure is added to the reason rather than replacing it. */
    char reason[640];
    snprintf(reason, sizeof reason, "%s", st_error_message());
    if (serializer_save_meta(ws->serializer, &ws->meta) != ST_OK)
        return st_fail(rc, "%s; and %s", reason, st_error_message());
    return st_fail(rc, "%s", reason);
}

void world_session_close(WorldSession *ws)
{
    game_structures_destroy(ws->structures);
    ws->structures = NULL;
    editor_destroy(ws->editor);
    ws->editor = NULL;
    updater_destroy(ws->updater);
    ws->updater = NULL;
    /* updater_destroy hands every chunk back without geometry, so the Terrain can free them all. */
    terrain_destroy(ws->terrain);
    ws->terrain = NULL;
    serializer_close(ws->serializer);
    ws->serializer = NULL;
    if (ws->generator) generator_destroy(ws->generator);
    ws->generator = NULL;
    if (ws->blocks) block_registry_destroy(ws->blocks);
    ws->blocks = NULL;
}
