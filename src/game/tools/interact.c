/* interact.c — digging and placing blocks.
 *
 * Design: both act on the block under the crosshair found by edit_raycast from the eye within
 * PLAYER_REACH blocks; the change goes through the Editor (edit.h), one history entry each: a dig is a
 * DestroyCell (particles, drop), which downgrades the neighbourhood so the worker relights and remeshes it. Placing refuses a solid block that would overlap the
 * player's box, any block in the cell of the eye, and a cell outside y 0..255. Bedrock cannot be dug (it is
 * the floor of the world).
 * After a change the renderer is told which chunks the edit remeshes (the 3x3 neighbourhood, as edit.c
 * downgrades it), so their new meshes go up in the first frame they arrive instead of waiting for the
 * upload budget. */
#include "interact.h"

#include <math.h>

#include "camera.h"
#include "strata/cell.h"
#include "strata/log.h"

bool interact_find_target(const Interaction *world, const Player *player, RaycastHit *hit)
{
    double eye[3];
    player_eye(player, eye);
    float origin[3] = {(float)eye[0], (float)eye[1], (float)eye[2]};
    float dir[3];
    camera_look_direction(player->yaw_deg, player->pitch_deg, dir);
    return edit_raycast(world->terrain, world->blocks, origin, dir, PLAYER_REACH, hit);
}

/* The chunks whose geometry a change of cell (x, z) can alter: its chunk and the eight around it. */
static void mark_edited(const Interaction *world, int x, int z)
{
    if (!world->renderer) return;
    int cx = chunk_coord_of(x), cz = chunk_coord_of(z);
    for (int dz = -1; dz <= 1; dz++)
        for (int dx = -1; dx <= 1; dx++) renderer_mark_edited(world->renderer, cx + dx, cz + dz);
}

bool interact_dig(const Interaction *world, const Player *player)
{
    RaycastHit hit;
    if (!interact_find_target(world, player, &hit)) return false;
    if (cell_contents(hit.value) == BLOCK_BEDROCK) return false;
    editor_begin_action(world->editor);
    bool dug = editor_destroy_cell(world->editor, 0, hit.x, hit.y, hit.z, cell_make(BLOCK_AIR, 0), false, false);
    editor_end_action(world->editor);
    if (!dug) return false;
    mark_edited(world, hit.x, hit.z);
    return true;
}

bool interact_place(const Interaction *world, const Player *player, int block)
{
    const BlockRegistry *blocks = world->blocks;
    if (!block_is_defined(blocks, block) || block == BLOCK_AIR) return false;
    RaycastHit hit;
    if (!interact_find_target(world, player, &hit)) return false;
    if (hit.place_y < 0 || hit.place_y >= CHUNK_SIZE_Y) return false;
    if (blocks->solid[block] && player_overlaps_cell(player, hit.place_x, hit.place_y, hit.place_z))
        return false;
    /* Not even a torch or a flower where the eye is: the camera would sit inside it. */
    double eye[3];
    player_eye(player, eye);
    if (hit.place_x == (int)floor(eye[0]) && hit.place_y == (int)floor(eye[1]) && hit.place_z == (int)floor(eye[2]))
        return false;
    editor_begin_action(world->editor);
    bool placed = editor_change_cell(world->editor, hit.place_x, hit.place_y, hit.place_z, cell_make(block, 0));
    editor_end_action(world->editor);
    if (!placed) return false;
    mark_edited(world, hit.place_x, hit.place_z);
    return true;
}
