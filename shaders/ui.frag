#version 330 core
// kind 0: flat colour; 1: font atlas (coverage in red) times colour; 2: block atlas times colour.
in vec2 v_uv;
in vec4 v_color;
flat in int v_kind;
out vec4 o_color;

uniform sampler2D u_atlas;
uniform sampler2D u_font;

void main()
{
    if (v_kind == 1) {
        o_color = vec4(v_color.rgb, v_color.a * texture(u_font, v_uv).r);
    } else if (v_kind == 2) {
        vec4 t = textureLod(u_atlas, v_uv, 0.0);
        if (t.a < 0.5) discard;
        o_color = vec4(t.rgb * v_color.rgb, v_color.a);
    } else {
        o_color = v_color;
    }
}
