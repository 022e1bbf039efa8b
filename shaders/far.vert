#version 330 core
// Far terrain patches: patch-local x, z and world y, colour (biome colour, slope light) baked in.
// u_offset = patch origin - camera (double on the CPU), as for chunks.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;

uniform mat4 u_view_proj;
uniform vec3 u_offset;

out vec4 v_color;
out vec2 v_horizontal;

void main()
{
    vec3 relative = a_position + u_offset;
    v_color = a_color;
    v_horizontal = relative.xz;
    gl_Position = u_view_proj * vec4(relative, 1.0);
}
