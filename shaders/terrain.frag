#version 330 core
// Opaque and transparent terrain: tile texel times vertex colour, then linear fog to the sky colour.
// The tile array repeats a tile across a merged quad by itself (GL_REPEAT), and its mip level comes from
// the unwrapped coordinate, so tile seams inside a quad pick no coarser level. Built twice (renderer.c): with
// CLEAR defined it skips the fog, for chunks wholly nearer than the fog's start (most of a view's pixels);
// the opaque pass's builds also define OPAQUE: alpha is 1 (one interpolated channel and a product less). The
// FADE builds draw a chunk dissolving between its full- and half-resolution faces (renderer.c).
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
#ifdef OPAQUE
    vec4 color = vec4(texture(u_tiles, vec3(v_local, v_layer)).rgb * v_color.rgb, 1.0);
#else
    vec4 color = texture(u_tiles, vec3(v_local, v_layer)) * v_color;
#endif
#ifdef CLEAR
    o_color = color;
#else
    o_color = vec4(mix(color.rgb, u_fog_color, clamp(v_fog, 0.0, 1.0)), color.a);
#endif
}
