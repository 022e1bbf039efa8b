/* mesher_light.c — what colour a vertex gets: smooth light with ambient occlusion, face shading, tints.
 *
 * Design (after Survivalcraft's cube vertex light). A vertex of a face touches 4 cells in front of the
 * face (the cell the face looks into and its 3 neighbours around that corner). Its light is the brightest
 * of the 4 minus a shadow: the summed shadow strength of the 4 (opaque cubes 10, leaves 4) divided by 7,
 * so a corner in a crease is darker than the middle of a wall. The light value v (in sevenths of a level)
 * becomes a brightness by lerp(0.1 * brightness_setting, 1, (v / 15)^1.25), times a fixed shade per face
 * direction (top 1.0, +-Z 0.9, +-X 0.8, bottom 0.55) so that cube sides read apart; both go into one
 * 0..256 factor table per face. Emitting blocks light their own faces at least to their emission.
 * Where torches (emitters that are not fluids) explain a corner's light, mesher_blocklight.c gives it a candle
 * colour that dims towards darkness (cube and fluid faces; slices with no emitter near skip it), so a
 * torch-lit room does not read as daylight; sun- and sky-lit corners stay neutral.
 * (The per-corner sum itself, mesher_light_face_corners, is inline in mesher_internal.h: it runs for
 * every face.)
 * Tints: grass, foliage and water colours are bilinear in (temperature, humidity) from the shafts,
 * shifted by the season (spring fresh, summer as is, autumn golden foliage, winter faded). */
#include <math.h>
#include <string.h>

#include "mesher_internal.h"

static const float MESHER_FACE_SHADE[6] = {0.9f, 0.8f, 0.9f, 0.8f, 1.0f, 0.55f};

/* Corner colours of the tint maps: [cold dry, cold wet, hot dry, hot wet]. */
static const uint8_t TINT_GRASS[4][3] = {{138, 170, 100}, {92, 160, 96}, {196, 186, 84}, {84, 184, 48}};
static const uint8_t TINT_FOLIAGE[4][3] = {{100, 138, 104}, {72, 140, 92}, {166, 160, 60}, {48, 160, 28}};
static const uint8_t TINT_WATER[4][3] = {{48, 96, 200}, {40, 104, 196}, {60, 150, 196}, {44, 140, 180}};

/* Season targets and how far grass / foliage move towards them. */
static const uint8_t SEASON_GRASS[4][3] = {{150, 214, 84}, {0, 0, 0}, {176, 156, 76}, {160, 160, 140}};
static const uint8_t SEASON_FOLIAGE[4][3] = {{140, 210, 80}, {0, 0, 0}, {212, 122, 36}, {130, 116, 92}};
static const float SEASON_AMOUNT_GRASS[4] = {0.15f, 0.0f, 0.35f, 0.5f};
static const float SEASON_AMOUNT_FOLIAGE[4] = {0.15f, 0.0f, 0.6f, 0.5f};

void mesher_tint_color(BlockTint tint, int temperature, int humidity, int season, uint8_t rgb[3])
{
    const uint8_t (*map)[3];
    const uint8_t *target = NULL;
    float amount = 0;
    int s = season < 0 ? 0 : season > 3 ? 3 : season;
    switch (tint) {
    case BLOCK_TINT_GRASS: map = TINT_GRASS; target = SEASON_GRASS[s]; amount = SEASON_AMOUNT_GRASS[s]; break;
    case BLOCK_TINT_FOLIAGE: map = TINT_FOLIAGE; target = SEASON_FOLIAGE[s]; amount = SEASON_AMOUNT_FOLIAGE[s]; break;
    case BLOCK_TINT_WATER: map = TINT_WATER; break;
    default: rgb[0] = rgb[1] = rgb[2] = 255; return;
    }
    float t = (float)(temperature < 0 ? 0 : temperature > 15 ? 15 : temperature) / 15.0f;
    float h = (float)(humidity < 0 ? 0 : humidity > 15 ? 15 : humidity) / 15.0f;
    for (int i = 0; i < 3; i++) {
        float cold = map[0][i] + (map[1][i] - map[0][i]) * h;
        float hot = map[2][i] + (map[3][i] - map[2][i]) * h;
        float c = cold + (hot - cold) * t;
        if (target) c += (target[i] - c) * amount;
        rgb[i] = (uint8_t)lrintf(c < 0 ? 0 : c > 255 ? 255 : c);
    }
}

float mesher_light_brightness(float light, float brightness)
{
    float v = light < 0 ? 0 : light > LIGHT_MAX ? 1.0f : light / LIGHT_MAX;
    float low = 0.1f * brightness;
    return low + (1.0f - low) * powf(v, 1.25f);
}

void mesher_light_init_tables(MesherContext *ctx)
{
    for (int i = 0; i < MESHER_LIGHT_STEPS; i++) {
        float b = mesher_light_brightness((float)i / MESHER_SHADOW_DIVISOR, ctx->brightness);
        ctx->flat_factor[i] = (uint16_t)lrintf(b * 256.0f);
        for (int f = 0; f < 6; f++) ctx->face_factor[f][i] = (uint16_t)lrintf(b * MESHER_FACE_SHADE[f] * 256.0f);
    }
    for (int tint = 0; tint < MESHER_TINT_TYPES; tint++)
        for (int t = 0; t < 16; t++)
            for (int h = 0; h < 16; h++) mesher_tint_color((BlockTint)tint, t, h, ctx->season, ctx->tint_table[tint][t][h]);
}

void mesher_light_prepare_blocks(MesherContext *ctx, const BlockRegistry *blocks)
{
    if (ctx->blocks == blocks) return;
    ctx->blocks = blocks;
    for (int id = 0; id < BLOCK_MAX; id++) {
        bool leaves = blocks->layer[id] == BLOCK_LAYER_ALPHA_TESTED && blocks->shape[id] == BLOCK_SHAPE_CUBE;
        if (blocks->opaque_cube[id]) ctx->shadow[id] = MESHER_SHADOW_OPAQUE;
        else if (leaves) ctx->shadow[id] = MESHER_SHADOW_LEAVES;
        else ctx->shadow[id] = 0;
        ctx->kind[id] = (uint8_t)((blocks->opaque_cube[id] ? MESHER_KIND_OPAQUE : 0) |
                                  (id != BLOCK_AIR ? MESHER_KIND_NONAIR : 0) |
                                  (id == BLOCK_WATER ? MESHER_KIND_WATER : 0) | (leaves ? MESHER_KIND_LEAVES : 0) |
                                  (blocks->far_opaque[id] ? MESHER_KIND_FAR_OPAQUE : 0));
    }
}

void mesher_light_prepare_columns(MesherContext *ctx, const TerrainChunk *chunk)
{
    for (int i = 0; i < CHUNK_SHAFTS; i++) {
        int32_t s = chunk->shafts[i];
        int t = shaft_temperature(s), h = shaft_humidity(s);
        for (int tint = 0; tint < MESHER_TINT_TYPES; tint++) memcpy(ctx->column_tint[tint][i], ctx->tint_table[tint][t][h], 3);
    }
}

/* The light taps of each face, derived from the corner table (mesher_faces.c's corner order). */
void mesher_light_init_taps(MesherContext *ctx)
{
    static const int stride[3] = {SLAB_STRIDE_X, SLAB_STRIDE_Y, SLAB_STRIDE_Z};
    for (int f = 0; f < 6; f++) {
        MesherFaceTaps *t = &ctx->taps[f];
        t->front = MESHER_FACE_NORMAL[f][0] * stride[0] + MESHER_FACE_NORMAL[f][1] * stride[1] +
                   MESHER_FACE_NORMAL[f][2] * stride[2];
        for (int k = 0; k < 4; k++) {
            int off[2], n = 0;
            for (int axis = 0; axis < 3; axis++) {
                if (MESHER_FACE_NORMAL[f][axis]) continue;
                off[n++] = (MESHER_FACE_CORNER[f][k][axis] ? 1 : -1) * stride[axis];
            }
            t->around[k][0] = off[0];
            t->around[k][1] = off[1];
            t->around[k][2] = off[0] + off[1];
        }
    }
}
