/* world_file.h — world.json: the world's identity and the player's place in it.
 *
 * world.json = {"format_version": 1, "seed": "<u64 as decimal text>", "settings": {...WorldSettings...},
 *               "generator": {"name": "gen24", "version": 1},
 *               "player": {"position": [x, y, z], "yaw": deg, "pitch": deg, "flying": bool},
 *               "time_of_day": 0..1, "game_time": seconds}
 * Written atomically (temp file, fsync, rename, fsync folder). A newer format_version is refused with
 * ST_ERR_VERSION and a message naming the file and both versions; a malformed field is ST_ERR_FORMAT
 * naming the file and field. Threads: main thread. */
#ifndef STRATA_WORLD_FILE_H
#define STRATA_WORLD_FILE_H

#include <stdbool.h>
#include "strata/error.h"
#include "strata/world_settings.h"

#define WORLD_FORMAT_VERSION 1

typedef struct WorldMeta {
    int format_version;
    WorldSettings settings;            /* includes the seed */
    char generator_name[32];
    int generator_version;
    double player_position[3];         /* feet position */
    float player_yaw, player_pitch;
    bool player_flying;
    float time_of_day;                 /* 0..1, 0.5 noon */
    double game_time;                  /* seconds played */
} WorldMeta;

/* `dir` is the world folder; the file is dir/world.json. */
StResult world_meta_load(const char *dir, WorldMeta *meta);
StResult world_meta_save(const char *dir, const WorldMeta *meta);
/* Parses world.json text (`path` names it in messages; the fuzz target uses it). */
StResult world_meta_parse(const char *path, const char *text, WorldMeta *meta);

#endif
