#version 330 core
// Opaque and transparent terrain: atlas texel times vertex colour, then linear fog to the sky colour.
// v_fog_range = (start, end) in blocks of horizontal distance; a chunk still fading in has a nearer end.
// The texel: the tile repeats across a merged quad (fract of the local coordinate, kept inside the tile);
// the mip level comes from the unwrapped coordinate, so tile seams inside a quad pick no coarser level.
flat in vec2 v_tile;
in vec2 v_local;
in vec4 v_color;
in vec2 v_horizontal;
flat in vec2 v_fog_range;

uniform sampler2D u_atlas;
uniform vec3 u_fog_color;

out vec4 o_color;

void main()
{
    vec2 uv = (v_tile + fract(v_local)) / 16.0;
    vec4 color = textureGrad(u_atlas, uv, dFdx(v_local) / 16.0, dFdy(v_local) / 16.0) * v_color;
    float fog = clamp((length(v_horizontal) - v_fog_range.x) / max(v_fog_range.y - v_fog_range.x, 1e-3), 0.0, 1.0);
    o_color = vec4(mix(color.rgb, u_fog_color, fog), color.a);
}
