/* block.h — the block registry: what each block id is, loaded from assets/blocks.json.
 *
 * blocks.json: {"tiles": ["stone", "dirt", ...],            // atlas tile names, in atlas order
 *               "blocks": [{"id": 2, "name": "stone", "layer": "opaque", "shape": "cube",
 *                           "emission": 0, "attenuation": 15, "solid": true,
 *                           "textures": {"all": "stone"} | {"top": .., "bottom": .., "side": ..} | six faces,
 *                           "tint": "none|grass|foliage|water", "tint_faces": ["top"],
 *                           "map_color": "#7f7f7f", "drop": "cobblestone",
 *                           "behaviour": "none|falling|fluid|needs_support"}]}
 * Texture keys: "all", "side" (the four sides), "top", "bottom", "pos_z", "pos_x", "neg_z", "neg_x"; a
 * specific key overrides "side"/"top"/"bottom", which override "all"; every face must end with a tile
 * (shape "none" needs none). Defaults: emission 0, attenuation 0, solid false, tint none, tint on all
 * faces, drop the block itself ("air" drops nothing), behaviour none (edit's behaviours: falling blocks drop
 * when unsupported, fluids flow with their level in the data bits, needs_support blocks break when the
 * block below goes; see behaviour.h). id, name, layer, shape and map_color are required;
 * unknown fields are errors (a typo must not silently fall back to a default).
 * The ids of the standard set (BlockId below) are fixed: the loader checks that each BlockId's name has
 * that id, so code and data cannot drift apart. Modders add blocks with ids >= BLOCK_FIRST_FREE.
 * Ownership: block_registry_load allocates, block_registry_destroy frees. After loading the registry is
 * immutable and may be read from any thread. */
#ifndef STRATA_BLOCK_H
#define STRATA_BLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include "strata/error.h"

#define BLOCK_MAX       1024
#define BLOCK_TILE_MAX  256
#define BLOCK_NAME_MAX  32

/* The standard block set. blocks.json must give these names exactly these ids. */
typedef enum BlockId {
    BLOCK_AIR = 0, BLOCK_BEDROCK, BLOCK_STONE, BLOCK_GRANITE, BLOCK_BASALT, BLOCK_SANDSTONE, BLOCK_LIMESTONE,
    BLOCK_DIRT, BLOCK_GRASS, BLOCK_SAND, BLOCK_GRAVEL, BLOCK_CLAY, BLOCK_WATER, BLOCK_ICE, BLOCK_SNOW,
    BLOCK_MAGMA, BLOCK_OAK_TRUNK, BLOCK_OAK_LEAVES, BLOCK_BIRCH_TRUNK, BLOCK_BIRCH_LEAVES, BLOCK_SPRUCE_TRUNK,
    BLOCK_SPRUCE_LEAVES, BLOCK_POPLAR_TRUNK, BLOCK_POPLAR_LEAVES, BLOCK_MIMOSA_TRUNK, BLOCK_MIMOSA_LEAVES,
    BLOCK_TALL_GRASS, BLOCK_RED_FLOWER, BLOCK_YELLOW_FLOWER, BLOCK_PURPLE_FLOWER, BLOCK_CACTUS, BLOCK_PUMPKIN,
    BLOCK_JACK_O_LANTERN, BLOCK_COAL_ORE, BLOCK_COPPER_ORE, BLOCK_IRON_ORE, BLOCK_DIAMOND_ORE,
    BLOCK_SALTPETER_ORE, BLOCK_SULPHUR_ORE, BLOCK_GERMANIUM_ORE, BLOCK_PLANKS, BLOCK_GLASS, BLOCK_TORCH,
    BLOCK_COBBLESTONE, BLOCK_BRICKS, BLOCK_DRY_BUSH, BLOCK_SNOW_LAYER,
    BLOCK_FIRST_FREE
} BlockId;

typedef enum BlockRenderLayer {
    BLOCK_LAYER_OPAQUE = 0,     /* drawn in the opaque pass; a full cube hides its neighbours' faces */
    BLOCK_LAYER_ALPHA_TESTED,   /* leaves, plants, torches: cut-out at alpha 0.5 */
    BLOCK_LAYER_TRANSPARENT,    /* water, ice, glass: blended, drawn far to near */
    BLOCK_LAYER_NONE            /* air: never drawn */
} BlockRenderLayer;

typedef enum BlockShape {
    BLOCK_SHAPE_CUBE = 0,  /* a unit cube */
    BLOCK_SHAPE_CROSS,     /* two crossed quads (plants, flowers) */
    BLOCK_SHAPE_TORCH,     /* a small box on the floor */
    BLOCK_SHAPE_FLUID,     /* a cube whose faces against the same fluid are culled; top slightly lowered */
    BLOCK_SHAPE_LAYER,     /* a thin slab on the floor of the cell, 2/16 high (snow cover) */
    BLOCK_SHAPE_NONE       /* air */
} BlockShape;

/* What a block does when the world around it changes (run by src/edit's behaviours). */
typedef enum BlockBehaviour {
    BLOCK_BEHAVIOUR_NONE = 0, BLOCK_BEHAVIOUR_FALLING, BLOCK_BEHAVIOUR_FLUID, BLOCK_BEHAVIOUR_NEEDS_SUPPORT,
    BLOCK_BEHAVIOUR_COUNT
} BlockBehaviour;

typedef enum BlockTint { BLOCK_TINT_NONE = 0, BLOCK_TINT_GRASS, BLOCK_TINT_FOLIAGE, BLOCK_TINT_WATER } BlockTint;

/* Face order as in Survivalcraft: 0 +Z, 1 +X, 2 -Z, 3 -X, 4 +Y (top), 5 -Y (bottom). */
typedef enum BlockFace {
    BLOCK_FACE_POS_Z = 0, BLOCK_FACE_POS_X, BLOCK_FACE_NEG_Z, BLOCK_FACE_NEG_X, BLOCK_FACE_POS_Y, BLOCK_FACE_NEG_Y
} BlockFace;

typedef struct BlockDef {
    char name[BLOCK_NAME_MAX];
    int id;
    bool defined;            /* false for unused ids */
    BlockRenderLayer layer;
    BlockShape shape;
    int emission;            /* light emitted, 0..15 */
    int attenuation;         /* extra light lost passing through, 0..15 (opaque blocks 15) */
    bool solid;              /* collides with the player */
    int textures[6];         /* atlas tile index per BlockFace */
    BlockTint tint;
    uint8_t tint_faces;      /* bit (1 << BlockFace) per face the tint applies to: all six by default,
                              * blocks.json "tint_faces": ["top"] for grass (its sides carry their own green) */
    uint8_t map_color[3];    /* top-down map colour */
    int drop;                /* block id dropped when dug (the block itself by default) */
    BlockBehaviour behaviour; /* none by default */
} BlockDef;

/* Empty rows and columns at a tile's edges, in sixteenths of the tile (u left/right, v top/bottom). */
typedef struct BlockTileMargin {
    uint8_t left, right, top, bottom;
} BlockTileMargin;

typedef struct BlockRegistry {
    int count;                                /* highest defined id + 1 */
    BlockDef defs[BLOCK_MAX];
    int tile_count;
    char tiles[BLOCK_TILE_MAX][BLOCK_NAME_MAX];
    /* Flat tables for hot loops, indexed by block id (0 for undefined ids). */
    uint8_t opaque_cube[BLOCK_MAX];   /* opaque layer and cube shape: hides neighbour faces, stops light */
    uint8_t transparent_to_sun[BLOCK_MAX]; /* lets sunlight through (air, water, leaves, glass, plants) */
    uint8_t attenuation[BLOCK_MAX];
    uint8_t emission[BLOCK_MAX];
    uint8_t solid[BLOCK_MAX];
    uint8_t layer[BLOCK_MAX];
    uint8_t shape[BLOCK_MAX];
    uint8_t behaviour[BLOCK_MAX];     /* BlockBehaviour */
    /* Per atlas tile, the empty margin around its drawn texels, in sixteenths of the tile (all 0 until
     * block_registry_fit_tiles reads the atlas): crossed plants draw only the box inside it. */
    BlockTileMargin tile_margin[BLOCK_TILE_MAX];
    /* Per block id, a transparent cube whose tiles are mostly opaque (ice: its texels' mean alpha is at least
     * one half; 0 until block_registry_fit_tiles): far chunks' half-resolution copy holds it as a solid block
     * drawn opaque (mesher_lod.c), where glass, mostly clear, keeps its faces. */
    uint8_t far_opaque[BLOCK_MAX];
} BlockRegistry;

/* Loads and validates `path`. On a bad file returns ST_ERR_IO / ST_ERR_FORMAT with a message naming the
 * file, the block (index and name) and the field, and what was expected. *out owned by the caller. */
StResult block_registry_load(const char *path, BlockRegistry **out);
void block_registry_destroy(BlockRegistry *reg);

/* Reads the atlas at `atlas_path` (16 tiles per row, RGBA PNG) and sets tile_margin for the tiles of
 * crossed plants: the rows and columns of the tile with no texel of alpha >= 128, in whole sixteenths
 * (rounded outwards for tiles finer than 16 texels); and far_opaque for transparent cubes whose six faces'
 * texels have a mean alpha of at least 128. Part of loading: call it before the registry is shared. A
 * missing or unreadable atlas leaves the registry as it was (all 0: whole quads, no far copy) and returns
 * the error; the caller decides whether that matters (the game's renderer fails on it with its own message). */
StResult block_registry_fit_tiles(BlockRegistry *reg, const char *atlas_path);

/* Block id by name, or -1. */
int block_registry_find(const BlockRegistry *reg, const char *name);
/* Atlas tile index by name, or -1. */
int block_registry_find_tile(const BlockRegistry *reg, const char *name);

/* The name the standard set gives `id` (0 <= id < BLOCK_FIRST_FREE), or NULL for other ids. */
const char *block_standard_name(int id);

/* The box a block of `shape` fills in its cell, in blocks from the cell's low corner (0..1 each axis): what
 * the crosshair's ray hits and the outline draws. A cube or fluid fills the cell; a layer (snow cover) is
 * its floor slab, 2/16 high; a torch its stick (a little wider, to be aimable); a cross (plants) the middle
 * 12/16 of the cell, full height. Air: an empty box at 0. */
void block_shape_bounds(BlockShape shape, float lo[3], float hi[3]);

/* Whether the block's tint colour multiplies the texture on `face`. */
static inline bool block_face_tinted(const BlockDef *def, BlockFace face)
{
    return def->tint != BLOCK_TINT_NONE && ((def->tint_faces >> face) & 1u);
}

static inline bool block_is_defined(const BlockRegistry *reg, int id)
{
    return id >= 0 && id < BLOCK_MAX && reg->defs[id].defined;
}

#endif
