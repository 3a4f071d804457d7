// Flat colour; points are drawn round (corners of the point sprite discarded), lines as they are.
in vec3 v_colour;
uniform bool u_round_points;
out vec4 o_colour;

void main() {
    if (u_round_points && length(gl_PointCoord - vec2(0.5)) > 0.5) {
        discard;
    }
    o_colour = vec4(v_colour, 1.0);
}
