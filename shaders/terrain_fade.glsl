// The dissolve of the FADE builds (renderer.c): the renderer puts this after the #version line of
// terrain.frag, terrain_cutout.frag and terrain_leaves.frag when it builds them with FADE defined. A
// screen-door dissolve, a 4x4 ordered dither: FADE 1 (a chunk's full-resolution faces) keeps the pixels whose
// threshold is at or above the chunk's share of half resolution, FADE 2 (its half-resolution faces) the
// others; each pixel shows one of them.
flat in float v_share;

void terrain_fade()
{
    ivec2 p = ivec2(gl_FragCoord.xy) & 3;
    int q = p.x ^ p.y;
    float threshold = (float(8 * (q & 1) + 4 * (p.y & 1) + 2 * (q >> 1) + (p.y >> 1)) + 0.5) / 16.0;
    if ((threshold < v_share) == (FADE == 1))
        discard;
}
