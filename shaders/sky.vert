#version 330 core
// Sky: one full-screen triangle; the fragment shader turns its NDC position back into a view direction.
out vec2 v_ndc;

void main()
{
    vec2 p = vec2((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);
    v_ndc = p;
    gl_Position = vec4(p, 1.0, 1.0);
}
