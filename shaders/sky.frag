#version 330 core
// Sky dome: a horizon-to-zenith gradient around the fog colour (so far terrain still melts into it), a
// sunrise/sunset glow towards a low sun, the sun and moon discs, stars at night and a drifting layer of
// blocky clouds that fades into the fog with distance.
in vec2 v_ndc;
out vec4 o_color;

uniform mat4 u_inv_view_proj;   // rotation-only view * projection, inverted
uniform vec3 u_horizon;         // the fog / clear colour
uniform vec3 u_sun;             // unit vector towards the sun (the moon is opposite)
uniform float u_daylight;       // 0 night .. 1 day
uniform vec3 u_camera;          // camera position (x, z wrapped to the cloud pattern), y in blocks
uniform float u_cloud_shift;    // blocks the clouds have drifted along +X
uniform vec2 u_fog;             // fog start, end (blocks)

const float CLOUD_HEIGHT = 192.0;
const float CLOUD_CELL = 12.0;

float hash3(vec3 p)
{
    p = fract(p * vec3(0.1031, 0.1030, 0.0973));
    p += dot(p, p.yxz + 33.33);
    return fract((p.x + p.y) * p.z);
}

float hash2(vec2 p)
{
    vec3 q = fract(vec3(p.xyx) * 0.1031);
    q += dot(q, q.yzx + 33.33);
    return fract((q.x + q.y) * q.z);
}

void main()
{
    vec4 far = u_inv_view_proj * vec4(v_ndc, 1.0, 1.0);
    vec3 dir = normalize(far.xyz / far.w);
    float up = max(dir.y, 0.0);
    // Sunrise and sunset: the zenith stays blue while an orange glow rings a sun near the horizon.
    float low = clamp(1.0 - abs(u_sun.y) * 4.0, 0.0, 1.0);
    vec3 zenith = mix(u_horizon * vec3(0.55, 0.70, 0.98), vec3(0.14, 0.20, 0.42) * (0.3 + 0.7 * u_daylight), low * 0.85);
    vec3 color = mix(u_horizon, zenith, pow(up, 0.5));

    float toward = max(dot(dir, normalize(vec3(u_sun.x, 0.0, u_sun.z) + vec3(0.0, 0.1, 0.0))), 0.0);
    float glow = pow(toward, 6.0) * low * (1.0 - smoothstep(0.0, 0.6, up));
    color = mix(color, vec3(1.0, 0.48, 0.18), glow * 0.75);

    // Stars: fixed in the sky, only at night, only above the horizon.
    float night = clamp(-u_sun.y * 5.0, 0.0, 1.0);
    if (night > 0.0 && dir.y > 0.0) {
        vec3 cell = floor(dir * 220.0);
        float h = hash3(cell);
        if (h > 0.9965) color += vec3(0.75, 0.78, 0.9) * night * (h - 0.9965) / 0.0035 * smoothstep(0.0, 0.15, dir.y);
    }

    // The sun and the moon.
    float sun = dot(dir, u_sun);
    color += vec3(1.0, 0.85, 0.55) * pow(max(sun, 0.0), 400.0) * 0.6;       // halo
    if (sun > 0.9992) color = mix(color, vec3(1.0, 0.97, 0.85), 1.0);
    float moon = dot(dir, -u_sun);
    if (moon > 0.9994 && -u_sun.y > -0.05) color = mix(color, vec3(0.86, 0.88, 0.95), 0.95);

    // Clouds: a flat layer of on/off cells, drifting, fading into the fog colour with distance.
    if (dir.y > 0.002 && u_camera.y < CLOUD_HEIGHT) {
        float t = (CLOUD_HEIGHT - u_camera.y) / dir.y;
        vec2 p = u_camera.xz + dir.xz * t + vec2(u_cloud_shift, 0.0);
        vec2 cell = floor(p / CLOUD_CELL);
        // Clumps: smooth value noise over 6-cell blocks, broken up by a little per-cell noise.
        vec2 q = cell / 6.0, i = floor(q), f = fract(q);
        f = f * f * (3.0 - 2.0 * f);
        float clump = mix(mix(hash2(i), hash2(i + vec2(1.0, 0.0)), f.x),
                          mix(hash2(i + vec2(0.0, 1.0)), hash2(i + vec2(1.0, 1.0)), f.x), f.y);
        if (clump * 0.85 + hash2(cell) * 0.3 > 0.78) {
            float distance = t * length(dir.xz);
            float fade = 1.0 - smoothstep(u_fog.y * 1.5, u_fog.y * 4.0, distance);
            vec3 cloud = mix(u_horizon * 0.6 + vec3(0.02), vec3(1.0, 1.0, 1.0), u_daylight);
            cloud = mix(cloud, vec3(1.0, 0.72, 0.55), glow * 0.6);
            color = mix(color, cloud, (0.35 + 0.5 * u_daylight) * fade);
        }
    }
    o_color = vec4(color, 1.0);
}
