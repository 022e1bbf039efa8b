#version 330 core
// Terrain vertices: chunk-local positions, atlas UV, colour with light and tint baked in.
// Camera-relative: u_chunk_offset = chunk origin - camera (computed in double on the CPU) and the
// view-projection has no translation, so positions stay small floats anywhere in the world.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec2 a_uv;
layout(location = 2) in vec4 a_color;

uniform mat4 u_view_proj;
uniform vec3 u_chunk_offset;

out vec2 v_uv;
out vec4 v_color;
out vec2 v_horizontal; // camera-relative x, z: fog uses the horizontal distance

void main()
{
    vec3 relative = a_position + u_chunk_offset;
    v_uv = a_uv;
    v_color = a_color;
    v_horizontal = relative.xz;
    gl_Position = u_view_proj * vec4(relative, 1.0);
}
