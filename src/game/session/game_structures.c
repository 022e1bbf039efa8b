/* game_structures.c — structures in the game: goto_structure, runtime stations and their examine text.
 *
 * Design: the station manifest (assets/stations.json, station.h) is loaded before the window,
 * so a script's unknown station type fails early (models deferred: game_structures_load_models voxelizes them
 * once the world is open, on its opener thread, through the cache beside the world, voxel_model.h). `station TYPE` targets up to STATION_REACH blocks away;
 * the station's footprint is centred on the targeted column, its flat zone (footprint + padding, the
 * manifest's blend) is registered in a runtime FlatZoneSet at the surface height at the centre, the loaded
 * terrain is flattened with terrain_tool_flatten (radius: the zone's core half-diagonal doubled, so the
 * tool's full-weight inner half covers the core and its smooth rim is the blend band) and the template is
 * placed by ChangeCell, all inside one editor action (one undo). The HUD's examine text is a lookup of the
 * targeted cell in the placed stations' boxes that also checks the cell still holds the template's block
 * (so an undone station no longer answers). goto_structure asks the generator for the nearest structure of
 * the type within GOTO_RADIUS blocks; the script teleports there and the player hovers until the chunks arrive.
 * This file reads the world session's fields and calls nothing in world_session*.c (the session frees it). */
#include "session/game_structures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "strata/flat_zone.h"
#include "strata/generator.h"
#include "strata/log.h"
#include "strata/station.h"
#include "strata/terrain_tools.h"
#include "strata/voxel_model.h"

#define STRUCT_TAG "structures"
#define GOTO_RADIUS 8192
#define GOTO_MAX 256
#define STATION_REACH 96.0f

typedef struct PlacedStation {
    int type;
    int origin[3];        /* the template's minimum corner */
    uint32_t zone_id;
} PlacedStation;

struct GameStructures {
    StationManifest manifest;
    FlatZoneSet *zones;
    PlacedStation *placed;
    int count, capacity;
    uint32_t next_zone_id;
};

StResult game_structures_create(const char *asset_dir, const BlockRegistry *blocks, Script *script,
                                GameStructures **out)
{
    GameStructures *s = calloc(1, sizeof *s);
    if (!s) return st_fail(ST_ERR_NOMEM, "structures: out of memory");
    *out = s;   /* freed by game_structures_destroy, also on the errors below */
    s->next_zone_id = 1;
    char path[WORLD_SESSION_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/stations.json", asset_dir);
    StResult rc = station_manifest_load_deferred(path, blocks, &s->manifest);
    if (rc != ST_OK) return rc;
    if ((rc = script_resolve_stations(script, &s->manifest)) != ST_OK) return rc;
    s->zones = flat_zone_set_create(0);
    if (!s->zones) return st_fail(ST_ERR_NOMEM, "structures: out of memory");
    return ST_OK;
}

StResult game_structures_load_models(GameStructures *s, const char *asset_dir, const WorldSession *ws)
{
    char path[WORLD_SESSION_PATH_MAX + 32], cache[WORLD_SESSION_PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/stations.json", asset_dir);
    voxel_model_cache_dir(ws->dir, ws->serializer && !ws->read_only, cache, sizeof cache);
    return station_manifest_load_models(&s->manifest, path, ws->blocks, cache);
}

void game_structures_destroy(GameStructures *s)
{
    if (!s) return;
    station_manifest_free(&s->manifest);
    flat_zone_set_destroy(s->zones);
    free(s->placed);
    free(s);
}

StResult game_structures_find(const WorldSession *ws, const Player *player, const ScriptCommand *c,
                              const char *script_path, double dest[3])
{
    static const char *const NAMES[2] = {"settlement", "dungeon"};
    int px = (int)floor(player->position[0]), pz = (int)floor(player->position[2]);
    GeneratorStructure *list = malloc(GOTO_MAX * sizeof *list);
    if (!list) return st_fail(ST_ERR_NOMEM, "goto_structure: out of memory");
    int n = generator_list_structures(ws->generator, px, pz, GOTO_RADIUS, list, GOTO_MAX);
    const GeneratorStructure *best = NULL;
    for (int i = 0; i < n && !best; i++)
        if ((int)list[i].type == c->structure) best = &list[i];
    if (!best) {
        free(list);
        return st_fail(ST_ERR_STATE, "%s:%d: goto_structure: no %s within %d blocks of %d %d (generator %s version %d)",
                       script_path, c->line, NAMES[c->structure & 1], GOTO_RADIUS, px, pz,
                       ws->generator->name, ws->generator->version);
    }
    log_info(STRUCT_TAG, "%s:%d: goto_structure %s: %d %d %d (footprint x %d..%d z %d..%d)", script_path, c->line,
             NAMES[c->structure & 1], best->x, best->y, best->z, best->min_x, best->max_x, best->min_z, best->max_z);
    dest[0] = best->x + 0.5;
    dest[1] = best->y;
    dest[2] = best->z + 0.5;
    free(list);
    return ST_OK;
}

static bool station_target(const WorldSession *ws, const Player *player, RaycastHit *hit)
{
    double eye[3];
    player_eye(player, eye);
    float origin[3] = {(float)eye[0], (float)eye[1], (float)eye[2]}, dir[3];
    camera_look_direction(player->yaw_deg, player->pitch_deg, dir);
    return edit_raycast(ws->terrain, ws->blocks, origin, dir, STATION_REACH, hit);
}

bool game_structures_place_station(GameStructures *s, WorldSession *ws, const Player *player, int type)
{
    if (!s || type < 0 || type >= s->manifest.count) return false;
    RaycastHit hit;
    if (!station_target(ws, player, &hit)) {
        log_warn(STRUCT_TAG, "station: no block within reach");
        return false;
    }
    const StationDef *d = &s->manifest.defs[type];
    Editor *ed = ws->editor;
    int fx = d->footprint[0], fz = d->footprint[1];
    int x0 = hit.x - fx / 2, z0 = hit.z - fz / 2;
    int ground = terrain_tool_surface_height(ed, x0 + fx / 2, z0 + fz / 2);
    if (ground < 0) ground = hit.y;
    if (s->count == s->capacity) {
        int cap = s->capacity ? s->capacity * 2 : 8;
        PlacedStation *p = realloc(s->placed, (size_t)cap * sizeof *p);
        if (!p) return false;
        s->placed = p;
        s->capacity = cap;
    }
    FlatZone zone;
    station_flat_zone(d, x0, z0, (float)ground, s->next_zone_id++, &zone);
    if (flat_zone_set_register(s->zones, &zone) != ST_OK) {
        log_warn(STRUCT_TAG, "station: %s", st_error_message());
        return false;
    }
    int changed = 0;
    editor_begin_action(ed);
    if (d->flatten) {
        float half = 0.5f * sqrtf(zone.width * zone.width + zone.depth * zone.depth);
        int r = (int)ceilf(2.0f * half);
        if (r > TERRAIN_TOOL_MAX_RADIUS) r = TERRAIN_TOOL_MAX_RADIUS;
        int n = 0;
        if (terrain_tool_flatten(ed, x0 + fx / 2, z0 + fz / 2, r, ground, 1.0f, &n) != ST_OK)
            log_warn(STRUCT_TAG, "station: %s", st_error_message());
        changed += n;
    }
    const VoxelTemplate *t = &d->model;
    int oy = ground + 1 + d->y_offset;
    for (int y = 0; y < t->size[1]; y++)
        for (int z = 0; z < t->size[2]; z++)
            for (int x = 0; x < t->size[0]; x++) {
                int id = voxel_template_get(t, x, y, z);
                if (id == VOXEL_TEMPLATE_KEEP || oy + y < 0 || oy + y >= CHUNK_SIZE_Y) continue;
                changed += editor_change_cell(ed, x0 + x, oy + y, z0 + z, cell_make(id, 0));
            }
    editor_end_action(ed);
    PlacedStation *p = &s->placed[s->count++];
    p->type = type;
    p->origin[0] = x0;
    p->origin[1] = oy;
    p->origin[2] = z0;
    p->zone_id = zone.id;
    log_info(STRUCT_TAG, "station %s at %d %d %d size %d %d %d: %d cells changed", d->type, x0, oy, z0, t->size[0],
             t->size[1], t->size[2], changed);
    return changed > 0;
}

const char *game_structures_examine(const GameStructures *s, int x, int y, int z, int32_t cell)
{
    if (!s) return NULL;
    for (int i = s->count - 1; i >= 0; i--) {
        const PlacedStation *p = &s->placed[i];
        const StationDef *d = &s->manifest.defs[p->type];
        const VoxelTemplate *t = &d->model;
        int lx = x - p->origin[0], ly = y - p->origin[1], lz = z - p->origin[2];
        if (lx < 0 || ly < 0 || lz < 0 || lx >= t->size[0] || ly >= t->size[1] || lz >= t->size[2]) continue;
        int id = voxel_template_get(t, lx, ly, lz);
        if (id != VOXEL_TEMPLATE_KEEP && id == cell_contents(cell)) return d->examine[0] ? d->examine : d->type;
    }
    return NULL;
}
