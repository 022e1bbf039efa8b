#version 330 core
// Far terrain patches: patch-local x, z and world y, colour (biome colour, slope light) baked in.
// u_offset = patch origin - camera (double on the CPU), as for chunks.
// a_position is in sixteenths of a block (far_render.c's FarGpuVertex).
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;

uniform mat4 u_view_proj;
uniform vec3 u_offset;

out vec4 v_color;
out vec2 v_horizontal;

void main()
{
    vec3 relative = a_position * (1.0 / 16.0) + u_offset;
    v_color = a_color;
    v_horizontal = relative.xz;
    gl_Position = u_view_proj * vec4(relative, 1.0);
}
