#version 330 core
// Terrain vertices: chunk-local positions, atlas UV, colour with light and tint baked in.
// Camera-relative: u_chunk_offset = chunk origin - camera (computed in double on the CPU) and the
// view-projection has no translation, so positions stay small floats anywhere in the world.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec2 a_uv;
layout(location = 2) in vec4 a_color;

uniform mat4 u_view_proj;
uniform vec3 u_chunk_offset;

// The mesher's atlas UVs lie on whole atlas texels, but a normalized short (32767 = 1) cannot hold a tile
// edge such as 1/16 exactly: the rounded value lands up to 1/65534 past it, inside the neighbouring tile,
// and pixels along block edges then sample that tile (black dots at block corners). Snapping to the
// 1/1024 grid restores the exact edges (any texel boundary of an atlas up to 1024 pixels wide).
const float UV_GRID = 1024.0;

out vec2 v_uv;
out vec4 v_color;
out vec2 v_horizontal; // camera-relative x, z: fog uses the horizontal distance

void main()
{
    vec3 relative = a_position + u_chunk_offset;
    v_uv = round(a_uv * UV_GRID) / UV_GRID;
    v_color = a_color;
    v_horizontal = relative.xz;
    gl_Position = u_view_proj * vec4(relative, 1.0);
}
