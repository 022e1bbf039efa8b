#version 330 core
// Far terrain: vertex colour scaled by the daylight, then the same linear fog as the voxel terrain.
in vec4 v_color;
in vec2 v_horizontal;

uniform vec3 u_fog_color;
uniform vec2 u_fog_range;
uniform float u_light;

out vec4 o_color;

void main()
{
    float fog = clamp((length(v_horizontal) - u_fog_range.x) / max(u_fog_range.y - u_fog_range.x, 1e-3), 0.0, 1.0);
    o_color = vec4(mix(v_color.rgb * u_light, u_fog_color, fog), 1.0);
}
