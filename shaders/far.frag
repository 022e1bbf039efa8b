#version 330 core
// Far terrain: vertex colour (the block's colour, shaded by the face's direction) scaled by the daylight,
// then fog. Built twice (far_render.c): with COVER it leaves out every pixel over a drawn voxel chunk (the
// cover map: one texel a chunk around the camera's), so the far columns never show through or over the
// voxel chunks (their sea, their ground) and need no sinking under them; but a sea square's floor (alpha
// 253, at the bottom of the world), seen only through the water of a chunk drawn without its floor.
// The fog: the voxel terrain's linear ramp in the horizontal distance, eased so that it reaches the sky's
// colour smoothly at the far distance, where the patches end, and the far terrain melts into the sky there.
in vec4 v_color;
in vec2 v_horizontal;

uniform vec3 u_fog_color;
uniform vec2 u_fog_range;
uniform float u_light;
#ifdef COVER
uniform sampler2D u_cover;      // R8: 1 where a voxel chunk is drawn
uniform vec2 u_cover_origin;    // the map's corner, camera-relative blocks
uniform float u_cover_size;     // chunks a side
#endif

out vec4 o_color;

void main()
{
    float f = clamp((length(v_horizontal) - u_fog_range.x) / max(u_fog_range.y - u_fog_range.x, 1e-3), 0.0, 1.0);
    float fog = f * f * (3.0 - 2.0 * f);
#ifdef COVER
    vec2 cell = floor((v_horizontal - u_cover_origin) / 16.0);
    if (all(greaterThanEqual(cell, vec2(0.0))) && all(lessThan(cell, vec2(u_cover_size))) &&
        texelFetch(u_cover, ivec2(cell), 0).r > 0.5 && v_color.a > 0.994)
        discard;   // a sea square's floor (alpha 253) stays: seen only where a chunk shows water but no floor
#endif
    o_color = vec4(mix(v_color.rgb * u_light, u_fog_color, fog), 1.0);
}
