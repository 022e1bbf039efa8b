/* strata-world — inspect and check a world folder without the game.
 *
 *   strata-world info DIR               settings, player, time; region files, chunk counts and sizes
 *   strata-world verify DIR [--assets A] every stored chunk checked (directory, record CRC32, decode with the
 *                                        block registry); lists each damaged chunk with file, chunk and
 *                                        offset. Exit 0 when all sound, 1 when anything is damaged.
 *   strata-world recover DIR            scans damaged region files (no valid directory, or set aside as
 *                                        .damaged) for intact records and restores the newest of each chunk
 *   strata-world export-template DIR X0,Y0,Z0 X1,Y1,Z1 OUT.json [--assets A]
 *                                        writes the box (inclusive corners) of the world, stored chunks as
 *                                        stored and the others generated, as a voxel template (world_export.c)
 * Exit 2 on a usage error or an unreadable world folder. info and verify open files read-only and write nothing.
 * Design: both commands walk Regions/ with the same region and codec code the game uses, so "verify says
 * sound" means "the game will load it". A world open in a running game is reported (its session lock is
 * held): a chunk written at that instant could read as damaged, so the result is marked uncertain. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strata/block.h"
#include "strata/chunk_codec.h"
#include "strata/generator.h"
#include "strata/log.h"
#include "strata/region.h"
#include "strata/world_file.h"
#include "world_export.h"

typedef struct RegionName { int x, z; char name[256]; } RegionName;

static int region_name_compare(const void *a, const void *b)
{
    const RegionName *p = a, *q = b;
    if (p->x != q->x) return p->x < q->x ? -1 : 1;
    if (p->z != q->z) return p->z < q->z ? -1 : 1;
    return strcmp(p->name, q->name);
}

/* Region files (sorted by coordinates) and, separately, anything else in Regions/ (sorted by name). */
static int list_regions(const char *regions_dir, RegionName **regions, int *count, RegionName **others, int *other_count)
{
    *regions = *others = NULL;
    *count = *other_count = 0;
    DIR *dir = opendir(regions_dir);
    if (!dir) return 0;
    int cap = 0, other_cap = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        int x = 0, z = 0;
        bool is_region = region_parse_file_name(e->d_name, &x, &z);
        RegionName **list = is_region ? regions : others;
        int *n = is_region ? count : other_count, *c = is_region ? &cap : &other_cap;
        if (*n == *c) {
            *c = *c ? *c * 2 : 64;
            RegionName *grown = realloc(*list, (size_t)*c * sizeof **list);
            if (!grown) {
                closedir(dir);
                return -1;
            }
            *list = grown;
        }
        (*list)[*n].x = x;
        (*list)[*n].z = z;
        snprintf((*list)[*n].name, sizeof (*list)[*n].name, "%s", e->d_name);
        (*n)++;
    }
    closedir(dir);
    if (*count) qsort(*regions, (size_t)*count, sizeof **regions, region_name_compare);
    if (*other_count) qsort(*others, (size_t)*other_count, sizeof **others, region_name_compare);
    return 0;
}

/* true when a running game holds the world's session lock. */
static bool world_in_use(const char *dir)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/session.lock", dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool busy = flock(fd, LOCK_SH | LOCK_NB) != 0;
    close(fd);
    return busy;
}

static void print_meta(const char *dir, const WorldMeta *m)
{
    const WorldSettings *s = &m->settings;
    printf("world: %s\n", dir);
    printf("format version: %d\n", m->format_version);
    printf("seed: %llu\n", (unsigned long long)s->seed);
    printf("generator: %s v%d\n", m->generator_name, m->generator_version);
    printf("terrain: %s, biome size %g, temperature offset %g, humidity offset %g, sea level offset %d",
           terrain_mode_name(s->mode), s->biome_size, s->temperature_offset, s->humidity_offset, s->sea_level_offset);
    if (s->mode == TERRAIN_MODE_ISLAND) printf(", island %gx%g", s->island_size_x, s->island_size_z);
    if (s->mode == TERRAIN_MODE_FLAT) printf(", flat height %d", s->flat_height);
    printf("\n");
    printf("player: position %.2f %.2f %.2f, yaw %.1f, pitch %.1f%s\n", m->player_position[0], m->player_position[1],
           m->player_position[2], m->player_yaw, m->player_pitch, m->player_flying ? ", flying" : "");
    printf("time of day: %.3f, played %.0f s\n", m->time_of_day, m->game_time);
}

static int command_info(const char *dir)
{
    WorldMeta meta;
    StResult rc = world_meta_load(dir, &meta);
    if (rc != ST_OK) {
        fprintf(stderr, "strata-world: %s\n", st_error_message());
        return rc == ST_ERR_FORMAT ? 1 : 2;
    }
    print_meta(dir, &meta);
    if (world_in_use(dir)) printf("note: the world is open in a running game\n");

    char regions_dir[PATH_MAX];
    snprintf(regions_dir, sizeof regions_dir, "%s/Regions", dir);
    RegionName *regions, *others;
    int count, other_count;
    if (list_regions(regions_dir, &regions, &count, &others, &other_count) != 0) {
        fprintf(stderr, "strata-world: out of memory listing %s\n", regions_dir);
        return 2;
    }
    long chunks = 0;
    unsigned long long file_bytes = 0, record_bytes = 0, used_bytes = 0;
    int damaged_files = 0;
    for (int i = 0; i < count; i++) {
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", regions_dir, regions[i].name);
        RegionFile *r = NULL;
        if (region_open(path, regions[i].x, regions[i].z, REGION_OPEN_READ, &r) != ST_OK) {
            printf("  %-24s unreadable: %s\n", regions[i].name, st_error_message());
            damaged_files++;
            continue;
        }
        RegionInfo info;
        region_get_info(r, &info);
        region_close(r);
        chunks += info.chunk_count;
        file_bytes += info.file_size;
        record_bytes += info.record_bytes;
        used_bytes += info.used_bytes;
        printf("  %-24s %3d chunks, %9llu bytes (%llu in records, %llu dead), generation %llu\n", regions[i].name,
               info.chunk_count, (unsigned long long)info.file_size, (unsigned long long)info.record_bytes,
               (unsigned long long)(info.file_size > info.used_bytes ? info.file_size - info.used_bytes : 0),
               (unsigned long long)info.generation);
    }
    printf("regions: %d files, %ld stored chunks (only edited chunks are stored), %llu bytes on disk, "
           "%llu bytes of chunk records, %.0f bytes per chunk\n",
           count, chunks, file_bytes, record_bytes, chunks ? (double)record_bytes / (double)chunks : 0.0);
    if (file_bytes > used_bytes) printf("dead space: %llu bytes (reclaimed by compaction)\n", file_bytes - used_bytes);
    for (int i = 0; i < other_count; i++) printf("other file in Regions/: %s\n", others[i].name);
    if (damaged_files) printf("%d region files unreadable: run strata-world verify\n", damaged_files);
    free(regions);
    free(others);
    return 0;
}

static int command_verify(const char *dir, const char *assets)
{
    char blocks_path[PATH_MAX + 32];
    snprintf(blocks_path, sizeof blocks_path, "%s/blocks.json", assets);
    BlockRegistry *blocks = NULL;
    if (block_registry_load(blocks_path, &blocks) != ST_OK) {
        fprintf(stderr, "strata-world: %s\n", st_error_message());
        return 2;
    }
    char world_json[PATH_MAX + 16];
    snprintf(world_json, sizeof world_json, "%s/world.json", dir);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || stat(world_json, &st) != 0) {
        fprintf(stderr, "strata-world: %s is not a world folder (no world.json)\n", dir);
        block_registry_destroy(blocks);
        return 2;
    }
    bool busy = world_in_use(dir);
    if (busy) printf("note: the world is open in a running game; a chunk being saved right now may show as damaged\n");

    int damaged = 0, rolled = 0;
    WorldMeta meta;
    if (world_meta_load(dir, &meta) != ST_OK) {
        printf("DAMAGED %s\n", st_error_message());
        damaged++;
    } else {
        /* what the game checks when it opens the world: its generator can be rebuilt as recorded */
        char worldgen[PATH_MAX + 32];
        snprintf(worldgen, sizeof worldgen, "%s/worldgen.json", assets);
        Generator *gen = NULL;
        if (generator_create_for_world(&meta.settings, meta.generator_name, meta.generator_version, blocks, worldgen,
                                       &gen) != ST_OK) {
            printf("REFUSED %s/world.json: the game cannot open this world: %s\n", dir, st_error_message());
            damaged++;
        }
        generator_destroy(gen);
    }

    char regions_dir[PATH_MAX];
    snprintf(regions_dir, sizeof regions_dir, "%s/Regions", dir);
    RegionName *regions, *others;
    int count, other_count;
    if (list_regions(regions_dir, &regions, &count, &others, &other_count) != 0) {
        fprintf(stderr, "strata-world: out of memory listing %s\n", regions_dir);
        block_registry_destroy(blocks);
        return 2;
    }
    ChunkCodec *codec = chunk_codec_create();
    static TerrainChunk chunk;
    long checked = 0;
    for (int i = 0; codec && i < count; i++) {
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", regions_dir, regions[i].name);
        RegionFile *r = NULL;
        StResult rc = region_open(path, regions[i].x, regions[i].z, REGION_OPEN_READ, &r);
        if (rc != ST_OK) {
            printf("DAMAGED %s (every chunk stored in it)\n", st_error_message());
            damaged++;
            continue;
        }
        RegionInfo info;
        region_get_info(r, &info);
        if (!info.copy_valid[0] || !info.copy_valid[1])
            printf("note: %s: directory copy %d is invalid (torn or damaged; the data pages were checked for newer "
                   "records: %d rolled forward, %d uncertain)\n", path, info.copy_valid[0] ? 1 : 0, info.rolled_forward,
                   info.uncertain);
        for (int slot = 0; slot < REGION_SLOTS; slot++) {
            RegionEntry entry = region_get_entry(r, slot);
            int cx = regions[i].x * REGION_CHUNKS + (slot & 15), cz = regions[i].z * REGION_CHUNKS + (slot >> 4);
            uint64_t generation = 0;
            RegionSlotStatus status = region_get_slot_status(r, slot, &generation);
            if (status == REGION_SLOT_ROLLED_FORWARD) {
                printf("ROLLED FORWARD %s: chunk %d,%d: its newest record (generation %llu, offset %u) is named by no "
                       "valid directory copy; it is the version read (the game commits it when it opens the file)\n",
                       path, cx, cz, (unsigned long long)generation, entry.offset);
                rolled++;
            } else if (status == REGION_SLOT_UNCERTAIN) {
                printf("UNCERTAIN %s: chunk %d,%d: another intact record of it exists whose age cannot be told; the "
                       "directory's version is read, the other is kept (strata-world recover can restore it)\n", path, cx, cz);
                damaged++;
            }
            if (!entry.offset) continue;
            const uint8_t *payload;
            size_t size;
            checked++;
            rc = region_read_chunk(r, cx, cz, &payload, &size);
            if (rc == ST_OK) {
                chunk_reset(&chunk, cx, cz);
                rc = chunk_codec_decode(codec, blocks, payload, size, &chunk);
                if (rc != ST_OK) {
                    printf("DAMAGED %s: chunk %d,%d at offset %u: %s\n", path, cx, cz, entry.offset, st_error_message());
                    damaged++;
                }
            } else {
                printf("DAMAGED %s\n", st_error_message());
                damaged++;
            }
        }
        region_close(r);
    }
    for (int i = 0; i < other_count; i++) {
        const char *tail = strstr(others[i].name, ".damaged");
        if (tail && !strstr(tail, ".recovered")) {
            printf("DAMAGED %s/%s: a damaged region file set aside earlier; its records were not recovered yet "
                   "(run strata-world recover)\n", regions_dir, others[i].name);
            damaged++;
        } else if (!strncmp(others[i].name, "Region ", 7) && !strstr(others[i].name, ".recovered")) {
            printf("note: %s/%s: not a region file name; skipped\n", regions_dir, others[i].name);
        }
    }
    if (!codec) fprintf(stderr, "strata-world: out of memory for the chunk codec\n");
    printf("%ld chunks in %d region files checked: %s", checked, count, damaged ? "" : "all sound");
    if (damaged) printf("%d damaged", damaged);
    if (rolled) printf(" (%d chunks rolled forward past a damaged directory copy)", rolled);
    printf("%s\n", busy ? " (world in use: re-run after the game quits to be sure)" : "");
    chunk_codec_destroy(codec);
    block_registry_destroy(blocks);
    free(regions);
    free(others);
    if (!codec) return 2;
    return damaged ? 1 : 0;
}

/* ---- recover ---- */

typedef struct RecoverScan {
    bool found[REGION_SLOTS];
    RegionRecordInfo best[REGION_SLOTS];
    uint8_t *payload[REGION_SLOTS];
    size_t size[REGION_SLOTS];
} RecoverScan;

static void recover_record(void *user, const RegionRecordInfo *record, const uint8_t *payload, size_t size)
{
    RecoverScan *scan = user;
    int slot = region_slot_of(record->cx, record->cz);
    const RegionRecordInfo *b = &scan->best[slot];
    /* Newest: the highest generation; version 1 records (no generation) lose to any CHK3, later offset wins. */
    if (scan->found[slot] && (b->generation > record->generation ||
                              (b->generation == record->generation && b->offset > record->offset)))
        return;
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return;
    memcpy(copy, payload, size);
    free(scan->payload[slot]);
    scan->payload[slot] = copy;
    scan->size[slot] = size;
    scan->best[slot] = *record;
    scan->found[slot] = true;
}

/* Parses "Region X,Z.dat" followed by anything (".damaged", ".damaged.3"). */
static bool recover_parse_name(const char *name, int *rx, int *rz)
{
    const char *dat = strstr(name, ".dat");
    if (!dat) return false;
    char base[256];
    snprintf(base, sizeof base, "%.*s", (int)(dat + 4 - name), name);
    return region_parse_file_name(base, rx, rz);
}

/* Restores the newest intact record of each chunk found in `source` into the region file `target`, never
 * replacing a chunk the target already holds (it is newer: the target was made after the source failed). */
static int recover_file(const char *source, const char *target, int rx, int rz, int *restored, int *kept)
{
    RecoverScan *scan = calloc(1, sizeof *scan);
    if (!scan) return -1;
    int failures = 0;
    if (region_scan_file(source, rx, rz, recover_record, scan) != ST_OK) {
        printf("FAILED %s: %s\n", source, st_error_message());
        failures++;
    }
    RegionFile *r = NULL;
    if (!failures && region_open(target, rx, rz, REGION_OPEN_CREATE, &r) != ST_OK) {
        printf("FAILED %s: %s\n", target, st_error_message());
        failures++;
    }
    for (int slot = 0; r && slot < REGION_SLOTS; slot++) {
        if (!scan->found[slot]) continue;
        const RegionRecordInfo *rec = &scan->best[slot];
        if (region_has_chunk(r, rec->cx, rec->cz)) {
            printf("kept %s: chunk %d,%d (the region file holds a newer copy)\n", target, rec->cx, rec->cz);
            (*kept)++;
            continue;
        }
        if (region_write_chunk(r, rec->cx, rec->cz, scan->payload[slot], scan->size[slot]) != ST_OK) {
            printf("FAILED %s: chunk %d,%d: %s\n", target, rec->cx, rec->cz, st_error_message());
            failures++;
            continue;
        }
        printf("restored %s: chunk %d,%d from %s (offset %u, generation %llu)\n", target, rec->cx, rec->cz, source,
               rec->offset, (unsigned long long)rec->generation);
        (*restored)++;
    }
    region_close(r);
    for (int slot = 0; slot < REGION_SLOTS; slot++) free(scan->payload[slot]);
    free(scan);
    return failures;
}

static int command_recover(const char *dir)
{
    if (world_in_use(dir)) {
        fprintf(stderr, "strata-world: %s is open in a running game; quit it first\n", dir);
        return 2;
    }
    char regions_dir[PATH_MAX];
    snprintf(regions_dir, sizeof regions_dir, "%s/Regions", dir);
    DIR *d = opendir(regions_dir);
    if (!d) {
        fprintf(stderr, "strata-world: %s: cannot list\n", regions_dir);
        return 2;
    }
    char (*names)[256] = NULL;
    int count = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.' || strncmp(e->d_name, "Region ", 7) != 0) continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 32;
            void *grown = realloc(names, sizeof *names * (size_t)cap);
            if (!grown) break;
            names = grown;
        }
        snprintf(names[count++], sizeof names[0], "%s", e->d_name);
    }
    closedir(d);
    int failures = 0, restored = 0, kept = 0, sources = 0;
    for (int i = 0; i < count; i++) {
        int rx, rz;
        if (!recover_parse_name(names[i], &rx, &rz) || strstr(names[i], ".recovered") || strstr(names[i], ".tmp"))
            continue;
        char path[PATH_MAX + 256], target[PATH_MAX + 256], source[PATH_MAX + 300];
        snprintf(path, sizeof path, "%s/%s", regions_dir, names[i]);
        region_file_path(target, sizeof target, regions_dir, rx, rz);
        bool aside = strstr(names[i], ".damaged") != NULL;
        if (!aside) {
            RegionFile *r = NULL;
            StResult rc = region_open(path, rx, rz, REGION_OPEN_READ, &r);
            region_close(r);
            if (rc != ST_ERR_FORMAT) continue;   /* readable: nothing to recover */
            /* Set the damaged file aside, then rebuild a fresh region from its records. */
            for (int n = 0; n < 1000; n++) {
                if (n == 0) snprintf(source, sizeof source, "%s.damaged", path);
                else snprintf(source, sizeof source, "%s.damaged.%d", path, n);
                if (access(source, F_OK) != 0) break;
            }
            if (rename(path, source) != 0) {
                printf("FAILED rename %s: %s\n", path, strerror(errno));
                failures++;
                continue;
            }
            printf("moved %s (no valid directory) to %s\n", path, source);
        } else {
            snprintf(source, sizeof source, "%s", path);
        }
        sources++;
        int f = recover_file(source, target, rx, rz, &restored, &kept);
        failures += f;
        if (f == 0) {
            char done[PATH_MAX + 320];
            snprintf(done, sizeof done, "%s.recovered", source);
            if (rename(source, done) != 0) failures++;
        }
    }
    free(names);
    printf("recover: %d damaged region files scanned, %d chunks restored, %d kept (newer copy present), %d failures\n",
           sources, restored, kept, failures);
    return failures ? 1 : 0;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: strata-world info DIR\n"
            "       strata-world verify DIR [--assets DIR]\n"
            "       strata-world recover DIR\n"
            "       strata-world export-template DIR X0,Y0,Z0 X1,Y1,Z1 OUT.json [--assets DIR]\n"
            "  info    the world's settings, player and time; region files, chunk counts and sizes\n"
            "  verify  check every stored chunk (directory, CRC32, contents); lists damaged chunks with file,\n"
            "          chunk coordinates and offset. Exit 0: all sound, 1: something is damaged, 2: usage or I/O.\n"
            "  recover restore the newest intact record of each chunk from damaged or set-aside (.damaged) region\n"
            "          files into fresh region files, never over a newer copy; the sources are renamed .recovered\n"
            "  export-template  the box (inclusive corners) as a voxel template (assets/templates/README.md)\n"
            "  --assets DIR  folder holding blocks.json (default %s)\n",
            STRATA_ASSET_DIR);
}

int main(int argc, char **argv)
{
    log_set_level(LOG_WARN);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc < 3) {
        usage(stderr);
        return 2;
    }
    const char *command = argv[1], *dir = argv[2], *assets = STRATA_ASSET_DIR;
    if (!strcmp(command, "export-template")) {
        char *rest[4];
        int n = 0;
        for (int i = 3; i < argc; i++) {
            if (!strcmp(argv[i], "--assets") && i + 1 < argc) assets = argv[++i];
            else if (n < 4) rest[n++] = argv[i];
            else n++;
        }
        if (n > 3) n = 4;
        return world_export_template(dir, assets, n, rest);
    }
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--assets") && i + 1 < argc) {
            assets = argv[++i];
        } else {
            fprintf(stderr, "strata-world: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!strcmp(command, "info")) return command_info(dir);
    if (!strcmp(command, "verify")) return command_verify(dir, assets);
    if (!strcmp(command, "recover")) return command_recover(dir);
    fprintf(stderr, "strata-world: unknown command '%s'\n", command);
    usage(stderr);
    return 2;
}
