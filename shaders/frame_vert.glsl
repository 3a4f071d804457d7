// The video frame: a quad covering the viewport (glViewport places it), made from gl_VertexID so no
// vertex buffer is needed. Texture row 0 is the image's top row.
out vec2 v_uv;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
    v_uv = vec2(corner.x, 1.0 - corner.y);
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
