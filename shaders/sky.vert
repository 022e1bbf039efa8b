#version 330 core
// Sky: one full-screen triangle. Each corner carries its view ray, the far-plane point it covers
// (homogeneous: rotation-only view * projection, inverted); the ray is affine in screen position and the
// triangle's w is 1 everywhere, so interpolation hands each pixel its own ray and sky.frag needs no matrix.
uniform mat4 u_inv_view_proj;

out vec4 v_ray;

void main()
{
    vec2 p = vec2((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);
    v_ray = u_inv_view_proj * vec4(p, 1.0, 1.0);
    gl_Position = vec4(p, 1.0, 1.0);
}
