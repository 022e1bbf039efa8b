/* fuzz_region.c — libFuzzer target for the region reader and writer (src/store/region.c, region_scan.c).
 *
 * Input: one flags byte, then the bytes of a region file for region 0,0. Flags: bit 0 recomputes the CRCs
 * (the payload CRC of each record that both directory copies name, then each copy's own CRC) so that
 * mutations get past the checksums into the structure checks; bit 1 also opens the file for writing and
 * writes one chunk (slot = the second input byte); bit 2 lowers the compaction threshold to 0 first.
 * The file lives in a scratch folder on /dev/shm (fdatasync is free there).
 * Properties checked (a failure traps):
 *   - every slot that reads back has a payload whose CRC32 is its entry's, within REGION_MAX_RECORD;
 *   - region_scan_file reports only records within the file;
 *   - after a write, the written chunk reads back exactly, and every other chunk that was readable before
 *     reads back unchanged (no write may clobber an intact record), also after closing and reopening.
 * Memory errors and leaks are AddressSanitizer's. */
#include <zlib.h>

#include "fuzz_common.h"
#include "strata/region.h"

#define FUZZ_DIR_BYTES (24 + REGION_SLOTS * 12)

static uint8_t file_copy[1u << 20];

static uint32_t get_u32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static void fix_crcs(uint8_t *file, size_t size)
{
    for (int copy = 0; copy < 2; copy++) {
        size_t base = (size_t)copy * REGION_PAGE;
        if (size < base + FUZZ_DIR_BYTES + 4) return;
        for (int i = 0; i < REGION_SLOTS; i++) {
            uint8_t *e = file + base + 24 + i * 12;
            uint32_t offset = get_u32(e), record = get_u32(e + 4);
            if (!offset || offset >= size || size - offset < REGION_RECORD_HEADER) continue;
            uint8_t *h = file + offset;
            size_t header = memcmp(h, "CHK3", 4) == 0 ? REGION_RECORD_HEADER : REGION_RECORD_HEADER_V1;
            uint32_t length = get_u32(h + 12);
            if (length > size - offset - header || record < header) continue;
            uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), h + header, length);
            put_u32(h + 16, crc);
            put_u32(e + 8, crc);
        }
        put_u32(file + base + FUZZ_DIR_BYTES, (uint32_t)crc32(crc32(0L, Z_NULL, 0), file + base, FUZZ_DIR_BYTES));
    }
}

typedef struct Seen { bool ok; uint32_t crc; size_t size; } Seen;

static void read_all(RegionFile *region, Seen seen[REGION_SLOTS])
{
    for (int slot = 0; slot < REGION_SLOTS; slot++) {
        const uint8_t *payload;
        size_t size;
        seen[slot].ok = region_read_chunk(region, slot & 15, slot >> 4, &payload, &size) == ST_OK;
        if (!seen[slot].ok) continue;
        if (size > REGION_MAX_RECORD) __builtin_trap();
        seen[slot].crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), payload, (uInt)size);
        seen[slot].size = size;
        if (seen[slot].crc != region_get_entry(region, slot).crc) __builtin_trap();
    }
    RegionInfo info;
    region_get_info(region, &info);
    if (info.chunk_count < 0 || info.chunk_count > REGION_SLOTS) __builtin_trap();
}

static size_t scanned_file_size;

static void on_record(void *user, const RegionRecordInfo *r, const uint8_t *payload, size_t size)
{
    (void)user;
    (void)payload;
    if ((uint64_t)r->offset + r->size > scanned_file_size || size > r->size) __builtin_trap();
    if (r->cx < 0 || r->cx > 15 || r->cz < 0 || r->cz > 15) __builtin_trap();
}

/* Other readable chunks must be unchanged; the written one must read back as `payload`. */
static void check_after_write(RegionFile *region, const Seen before[REGION_SLOTS], int written, uint32_t crc, size_t size)
{
    Seen after[REGION_SLOTS];
    read_all(region, after);
    for (int slot = 0; slot < REGION_SLOTS; slot++) {
        if (slot == written) {
            if (!after[slot].ok || after[slot].crc != crc || after[slot].size != size) __builtin_trap();
        } else if (before[slot].ok && (!after[slot].ok || after[slot].crc != before[slot].crc ||
                                        after[slot].size != before[slot].size)) {
            __builtin_trap();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[128];
    if (!path[0]) snprintf(path, sizeof path, "%s/Region 0,0.dat", fuzz_scratch_dir());
    if (size < 2 || size - 1 > sizeof file_copy) return 0;
    int flags = data[0], slot = data[1];
    size_t file_size = size - 1;
    memcpy(file_copy, data + 1, file_size);
    if (flags & 1) fix_crcs(file_copy, file_size);
    unlink(path);
    fuzz_write_file(path, file_copy, file_size);

    RegionFile *region = NULL;
    Seen seen[REGION_SLOTS];
    if (region_open(path, 0, 0, REGION_OPEN_READ, &region) == ST_OK) {
        read_all(region, seen);
        region_close(region);
    }
    scanned_file_size = file_size;
    (void)region_scan_file(path, 0, 0, on_record, NULL);

    if (!(flags & 2) || region_open(path, 0, 0, REGION_OPEN_WRITE, &region) != ST_OK) return 0;
    if (flags & 4) region_set_compact_min_bytes(region, 0);
    read_all(region, seen);
    uint8_t payload[300];
    size_t payload_size = 1 + (size_t)(flags >> 3) * 9;
    for (size_t i = 0; i < payload_size; i++) payload[i] = (uint8_t)(data[i % size] ^ i);
    uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), payload, (uInt)payload_size);
    if (region_write_chunk(region, slot & 15, slot >> 4, payload, payload_size) == ST_OK) {
        check_after_write(region, seen, slot, crc, payload_size);
        region_close(region);
        if (region_open(path, 0, 0, REGION_OPEN_READ, &region) != ST_OK) __builtin_trap();
        check_after_write(region, seen, slot, crc, payload_size);
    } else {
        check_after_write(region, seen, -1, 0, 0);   /* a failed write changes nothing readable */
    }
    region_close(region);
    return 0;
}
