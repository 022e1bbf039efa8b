#version 330 core
// Alpha-tested terrain (leaves, plants, torches): texels with alpha below 0.5 are cut out, the rest is
// drawn opaque, with the same fog and tile lookup as terrain.frag.
// Built with and without CLEAR, and with FADE, as terrain.frag.
flat in float v_layer;
in vec2 v_local;
in vec4 v_color;
in float v_fog;

uniform sampler2DArray u_tiles;
uniform vec3 u_fog_color;

out vec4 o_color;

void main()
{
#ifdef FADE
    terrain_fade();   // terrain_fade.glsl: the dissolve between a chunk's two resolutions
#endif
    vec4 texel = texture(u_tiles, vec3(v_local, v_layer));
    if (texel.a < 0.5)
        discard;
#ifdef CLEAR
    o_color = vec4(texel.rgb * v_color.rgb, 1.0);
#else
    o_color = vec4(mix(texel.rgb * v_color.rgb, u_fog_color, clamp(v_fog, 0.0, 1.0)), 1.0);
#endif
}
