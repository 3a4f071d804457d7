// Samples the frame texture (uploaded as BGR, so the texture is already RGB).
in vec2 v_uv;
uniform sampler2D u_frame;
uniform float u_dim; // 1 = as captured; lower darkens the frame so overlays stand out
out vec4 o_colour;

void main() {
    o_colour = vec4(texture(u_frame, v_uv).rgb * u_dim, 1.0);
}
