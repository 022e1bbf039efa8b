#version 330 core
// Far leaves (renderer.c): cut out like terrain_cutout.frag, but drawn with back faces culled, so a canopy
// shows one layer of leaves where near ones show two (the far side's faces through the holes). The
// threshold is lower to make up for it: in the coverage-preserving mip chain (atlas.c) alpha is the
// fraction of covered texels, and keeping texels from 0.25 up fills about as much of a far canopy as two
// layers cut at 0.5 do.
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
    vec4 texel = textureGrad(u_atlas, uv, dFdx(v_local) / 16.0, dFdy(v_local) / 16.0);
    if (texel.a < 0.25)
        discard;
    vec3 color = texel.rgb * v_color.rgb;
    float fog = clamp((length(v_horizontal) - v_fog_range.x) / max(v_fog_range.y - v_fog_range.x, 1e-3), 0.0, 1.0);
    o_color = vec4(mix(color, u_fog_color, fog), 1.0);
}
