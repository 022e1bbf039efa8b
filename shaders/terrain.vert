#version 330 core
// Terrain vertices: chunk-local positions, texture coordinates, colour with light and tint baked in.
// Camera-relative: each vertex carries its chunk's slot; the slot table (a texture buffer the renderer
// fills every frame) holds chunk origin - camera (computed in double on the CPU) and the chunk's fog band.
// The view-projection has no translation, so positions stay small floats anywhere in the world, and no
// per-chunk uniform is needed: a whole pass is one multi-draw.
// a_uv (integers, mesher.h): tile * 512 + local, local in sixteenths of a tile; a merged quad's local runs
// past 16 and the tile array's GL_REPEAT repeats the tile (atlas.c: layer = column + 16 * row).
// Fog is linear in the horizontal distance, computed here and interpolated: per pixel it cost a square root
// and a division for what is a smooth ramp over tens of blocks (a quad is at most a slice wide).
// a_position is in steps of 1/64 block (chunk_arena.c's fixed point, ARENA_POSITION_STEPS).
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec2 a_uv;
layout(location = 2) in vec4 a_color;
layout(location = 3) in uint a_slot;

uniform mat4 u_view_proj;
uniform samplerBuffer u_slots;  // per slot: (offset.xyz, 0), (fog start, fog end, lod share, 0)

const float UV_TILE_STRIDE = 512.0;
const float POSITION_STEP = 1.0 / 64.0;

flat out float v_layer; // the tile's layer in the tile array
out vec2 v_local;       // tile-local coordinate in tiles (repeats past 1)
out vec4 v_color;
out float v_fog;        // 0 clear .. 1 fully fogged (clamped per pixel); a chunk still fading in has a nearer band
flat out float v_share; // the chunk's share of half resolution: the FADE builds dissolve by it (renderer.c)

void main()
{
    int slot = int(a_slot) * 2;
    vec3 relative = a_position * POSITION_STEP + texelFetch(u_slots, slot).xyz;
    vec3 band = texelFetch(u_slots, slot + 1).xyz;
    vec2 fog_range = band.xy;
    v_share = band.z;
    vec2 tile = floor(a_uv / UV_TILE_STRIDE);
    v_layer = tile.x + 16.0 * tile.y;
    v_local = (a_uv - tile * UV_TILE_STRIDE) / 16.0;
    v_color = a_color;
    v_fog = (length(relative.xz) - fog_range.x) / max(fog_range.y - fog_range.x, 1e-3);
    gl_Position = u_view_proj * vec4(relative, 1.0);
}
