#version 330 core
// Terrain vertices: chunk-local positions, texture coordinates, colour with light and tint baked in.
// Camera-relative: each vertex carries its chunk's slot; the slot table (a texture buffer the renderer
// fills every frame) holds chunk origin - camera (computed in double on the CPU) and the chunk's fog band.
// The view-projection has no translation, so positions stay small floats anywhere in the world, and no
// per-chunk uniform is needed: a whole pass is one multi-draw.
// a_uv (integers, mesher.h): tile * 512 + local, local in sixteenths of a tile; a merged quad's local runs
// past 16 and the fragment shader repeats the tile.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec2 a_uv;
layout(location = 2) in vec4 a_color;
layout(location = 3) in uint a_slot;

uniform mat4 u_view_proj;
uniform samplerBuffer u_slots;  // per slot: (offset.xyz, 0), (fog start, fog end, 0, 0)

const float UV_TILE_STRIDE = 512.0;

flat out vec2 v_tile;  // atlas tile column, row
out vec2 v_local;      // tile-local coordinate in tiles (repeats past 1)
out vec4 v_color;
out vec2 v_horizontal; // camera-relative x, z: fog uses the horizontal distance
flat out vec2 v_fog_range; // the chunk's fog band (a chunk still fading in has a nearer end)

void main()
{
    int slot = int(a_slot) * 2;
    vec3 relative = a_position + texelFetch(u_slots, slot).xyz;
    v_fog_range = texelFetch(u_slots, slot + 1).xy;
    vec2 tile = floor(a_uv / UV_TILE_STRIDE);
    v_tile = tile;
    v_local = (a_uv - tile * UV_TILE_STRIDE) / 16.0;
    v_color = a_color;
    v_horizontal = relative.xz;
    gl_Position = u_view_proj * vec4(relative, 1.0);
}
