#version 330 core
// Far leaves (renderer.c): cut out like terrain_cutout.frag, but drawn with back faces culled, so a canopy
// shows one layer of leaves where near ones show two (the far side's faces through the holes). The
// threshold is lower to make up for it: in the coverage-preserving mip chain (atlas.c) alpha is the
// fraction of covered texels, and keeping texels from 0.25 up fills about as much of a far canopy as two
// layers cut at 0.5 do.
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
    if (texel.a < 0.25)
        discard;
#ifdef CLEAR
    o_color = vec4(texel.rgb * v_color.rgb, 1.0);
#else
    o_color = vec4(mix(texel.rgb * v_color.rgb, u_fog_color, clamp(v_fog, 0.0, 1.0)), 1.0);
#endif
}
