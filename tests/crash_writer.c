/* crash_writer.c — the process that test_crash kills: saves chunk versions through the serializer forever.
 *
 * Usage: crash_writer WORLD_DIR FIRST_STEP. For each step k from FIRST_STEP it appends "B k" to
 * WORLD_DIR/progress.log, saves version k of chunk crash_step_chunk(k) (crash_chunks.h) through the
 * serializer's ChunkStorage, then appends "D k". A log line is one write(2), which a SIGKILL cannot split;
 * the driver reads the log to know which versions must be on disk and which one may be in flight. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crash_chunks.h"
#include "strata/serializer.h"

static TerrainChunk chunk;

static void log_line(int fd, char tag, long step)
{
    char line[32];
    int n = snprintf(line, sizeof line, "%c %ld\n", tag, step);
    if (write(fd, line, (size_t)n) != n) {
        perror("progress.log");
        exit(3);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: crash_writer WORLD_DIR FIRST_STEP\n");
        return 2;
    }
    long first = strtol(argv[2], NULL, 10);
    WorldMeta meta;
    Serializer *s = NULL;
    if (serializer_open(argv[1], false, &meta, NULL, &s) != ST_OK) {
        fprintf(stderr, "crash_writer: %s\n", st_error_message());
        return 1;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/progress.log", argv[1]);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    const ChunkStorage *storage = serializer_chunk_storage(s);
    for (long step = first;; step++) {
        crash_make_chunk(&chunk, crash_step_chunk(step), step);
        log_line(fd, 'B', step);
        if (storage->save(storage->user, &chunk) != ST_OK) {
            fprintf(stderr, "crash_writer: step %ld: %s\n", step, st_error_message());
            return 1;
        }
        log_line(fd, 'D', step);
    }
}
