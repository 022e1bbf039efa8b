#version 330 core
// UI: screen-space quads in framebuffer pixels (top-left origin), flat, font or block atlas.
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_uv;
layout(location = 2) in vec4 a_color;
layout(location = 3) in float a_kind;

uniform mat4 u_mvp;

out vec2 v_uv;
out vec4 v_color;
flat out int v_kind;

void main()
{
    v_uv = a_uv;
    v_color = a_color;
    v_kind = int(a_kind + 0.5);
    gl_Position = u_mvp * vec4(a_position, 0.0, 1.0);
}
