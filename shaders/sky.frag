#version 330 core
// Sky dome: a horizon-to-zenith gradient around the fog colour (so far terrain still melts into it), a
// sunrise/sunset glow towards a low sun, the sun and moon discs, stars at night (compiled in with STARS:
// sky.c draws that program only while they show) and a drifting layer of soft clouds that fades into the
// fog with distance. It shades a third to a half of the screen on a software renderer, so everything that
// is the same for every pixel comes in as a uniform (sky.c), the halo's power is taken by squaring, and the
// clouds are one trilinear sample of a density texture (sky.c computes it once).
in vec4 v_ray;
out vec4 o_color;

uniform vec3 u_horizon;         // the fog / clear colour
uniform vec3 u_zenith;          // the colour straight up
uniform vec3 u_sun;             // unit vector towards the sun (the moon is opposite)
uniform vec3 u_glow_dir;        // unit vector to the glow's centre: the sun's bearing, a little up
uniform float u_low;            // the glow's strength: 1 with the sun on the horizon, 0 from ~15 degrees
uniform float u_night;          // the stars' brightness
uniform float u_moon;           // 1 while the moon is up
uniform vec3 u_camera;          // camera position (x, z wrapped to the cloud texture's period), y in blocks
uniform float u_cloud_shift;    // blocks the clouds have drifted along +X (wrapped likewise)
uniform vec2 u_fog;             // fog start, end (blocks)
uniform vec3 u_cloud_color;     // a cloud's colour away from the glow
uniform float u_cloud_alpha;    // a near cloud's opacity
uniform sampler2D u_clouds;     // cloud density, 0.5 at an edge; trilinear, repeating (sky.c)
uniform float u_cloud_scale;    // 1 / the pattern's period in blocks (8 x the texture's size)

const float CLOUD_HEIGHT = 192.0;

#ifdef STARS
float hash3(vec3 p)
{
    p = fract(p * vec3(0.1031, 0.1030, 0.0973));
    p += dot(p, p.yxz + 33.33);
    return fract((p.x + p.y) * p.z);
}
#endif

void main()
{
    vec3 dir = normalize(v_ray.xyz / v_ray.w);
    float up = max(dir.y, 0.0);
    vec3 color = mix(u_horizon, u_zenith, sqrt(up));

    float toward = max(dot(dir, u_glow_dir), 0.0);
    float toward2 = toward * toward;
    float glow = toward2 * toward2 * toward2 * u_low * (1.0 - smoothstep(0.0, 0.6, up));
    color = mix(color, vec3(1.0, 0.48, 0.18), glow * 0.75);

#ifdef STARS
    // Stars: fixed in the sky, only above the horizon.
    if (dir.y > 0.0) {
        float h = hash3(floor(dir * 220.0));
        if (h > 0.9965) color += vec3(0.75, 0.78, 0.9) * u_night * (h - 0.9965) / 0.0035 * smoothstep(0.0, 0.15, dir.y);
    }
#endif

    // The sun, its halo (sun^400 = sun^256 * sun^128 * sun^16) and the moon.
    float sun = dot(dir, u_sun);
    float s = max(sun, 0.0);
    float s16 = s * s; s16 *= s16; s16 *= s16; s16 *= s16;
    float s128 = s16 * s16; s128 *= s128; s128 *= s128;
    color += vec3(1.0, 0.85, 0.55) * (s128 * s128 * s128 * s16) * 0.6;
    if (sun > 0.9992) color = vec3(1.0, 0.97, 0.85);
    if (-sun > 0.9994 && u_moon > 0.0) color = mix(color, vec3(0.86, 0.88, 0.95), 0.95);

    // Clouds: a soft layer of noise, drifting, fading into the fog colour with distance. The texture is
    // filtered and mipmapped, so an edge is soft and the layer far off an even haze, never streaks; its
    // coordinates and their screen derivatives are taken for every pixel (derivatives are only defined
    // outside a branch), the sample only where a cloud can show.
    float rise = max(dir.y, 0.01);
    float t = (CLOUD_HEIGHT - u_camera.y) / rise;
    vec2 uv = (u_camera.xz + dir.xz * t + vec2(u_cloud_shift, 0.0)) * u_cloud_scale;
    vec2 du = dFdx(uv), dv = dFdy(uv);
    if (dir.y > 0.01 && u_camera.y < CLOUD_HEIGHT) {
        float distance = t * length(dir.xz);
        // with distance, and in the last few degrees over the horizon, where the layer is seen edge-on
        float fade = (1.0 - smoothstep(u_fog.y * 1.5, u_fog.y * 4.0, distance)) * smoothstep(0.02, 0.1, dir.y);
        if (fade > 0.0) {
            float density = textureGrad(u_clouds, uv, du, dv).r;
            float cover = smoothstep(0.4, 0.6, density) * fade;
            // thicker towards the middle: a little greyer there, as a cloud's underside, brighter at its rim
            vec3 cloud = u_cloud_color * (1.0 - 0.16 * smoothstep(0.55, 0.95, density));
            cloud = mix(cloud, vec3(1.0, 0.72, 0.55), glow * 0.6);
            color = mix(color, cloud, u_cloud_alpha * cover);
        }
    }
    o_color = vec4(color, 1.0);
}
