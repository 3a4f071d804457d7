// Overlay points and lines given in image pixels (x right, y down), mapped to the frame's viewport.
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec3 a_colour;
uniform vec2 u_image_size;
uniform float u_point_size;
out vec3 v_colour;

void main() {
    vec2 ndc = (a_pos + 0.5) / u_image_size * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
    gl_PointSize = u_point_size;
    v_colour = a_colour;
}
