#include "gui/renderer_gl.h"

#include <cstddef>

#include "embedded_shaders.h"

namespace app::gui {

FrameRenderer::FrameRenderer()
    : m_frame_program(std::make_unique<ShaderProgram>("frame", k_shader_frame_vert, k_shader_frame_frag)),
      m_overlay_program(std::make_unique<ShaderProgram>("overlay", k_shader_overlay_vert, k_shader_overlay_frag)) {
    m_u_frame = m_frame_program->uniform("u_frame");
    m_u_dim = m_frame_program->uniform("u_dim");
    m_u_image_size = m_overlay_program->uniform("u_image_size");
    m_u_point_size = m_overlay_program->uniform("u_point_size");
    m_u_round = m_overlay_program->uniform("u_round_points");

    GL_CHECK(glGenTextures(1, &m_texture));
    glBindTexture(GL_TEXTURE_2D, m_texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    GL_CHECK(glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE));

    GL_CHECK(glGenVertexArrays(1, &m_empty_vao)); // core profile draws need a bound VAO even without attributes
    glGenVertexArrays(1, &m_vao);
    glGenBuffers(1, &m_vbo);
    glBindVertexArray(m_vao);
    glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(OverlayVertex),
                          reinterpret_cast<const void*>(offsetof(OverlayVertex, x)));
    glEnableVertexAttribArray(1);
    GL_CHECK(glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(OverlayVertex),
                                   reinterpret_cast<const void*>(offsetof(OverlayVertex, r))));
    glBindVertexArray(0);
}

FrameRenderer::~FrameRenderer() {
    glDeleteBuffers(1, &m_vbo);
    glDeleteVertexArrays(1, &m_vao);
    glDeleteVertexArrays(1, &m_empty_vao);
    glDeleteTextures(1, &m_texture);
}

void FrameRenderer::upload(const cv::Mat& bgr) {
    CV_Assert(bgr.type() == CV_8UC3);
    glBindTexture(GL_TEXTURE_2D, m_texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, static_cast<GLint>(bgr.step[0] / bgr.elemSize()));
    if (bgr.size() != m_size) {
        m_size = bgr.size();
        GL_CHECK(glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, m_size.width, m_size.height, 0, GL_BGR, GL_UNSIGNED_BYTE, bgr.data));
    } else {
        GL_CHECK(glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, m_size.width, m_size.height, GL_BGR, GL_UNSIGNED_BYTE, bgr.data));
    }
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
}

void FrameRenderer::draw_frame(const Viewport& v, float dim) const {
    if (m_size.empty()) return;
    glViewport(v.x, v.y, v.width, v.height);
    m_frame_program->use();
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, m_texture);
    glUniform1i(m_u_frame, 0);
    glUniform1f(m_u_dim, dim);
    glBindVertexArray(m_empty_vao);
    GL_CHECK(glDrawArrays(GL_TRIANGLE_STRIP, 0, 4));
    glBindVertexArray(0);
}

void FrameRenderer::set_overlay(const OverlayGeometry& g) {
    const std::size_t n = g.points.size() + g.lines.size();
    glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
    if (n > m_vbo_capacity) {
        m_vbo_capacity = n * 2; // grow geometrically: particle counts change with live tuning
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(m_vbo_capacity * sizeof(OverlayVertex)), nullptr, GL_STREAM_DRAW);
    }
    if (!g.points.empty()) {
        glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(g.points.size() * sizeof(OverlayVertex)), g.points.data());
    }
    if (!g.lines.empty()) {
        GL_CHECK(glBufferSubData(GL_ARRAY_BUFFER, static_cast<GLintptr>(g.points.size() * sizeof(OverlayVertex)),
                                 static_cast<GLsizeiptr>(g.lines.size() * sizeof(OverlayVertex)), g.lines.data()));
    }
    m_n_points = static_cast<GLsizei>(g.points.size());
    m_n_line_vertices = static_cast<GLsizei>(g.lines.size());
}

void FrameRenderer::draw_overlay(const Viewport& v, float point_size, float line_width) const {
    if (m_size.empty() || m_n_points + m_n_line_vertices == 0) return;
    glViewport(v.x, v.y, v.width, v.height);
    glEnable(GL_PROGRAM_POINT_SIZE);
    m_overlay_program->use();
    glUniform2f(m_u_image_size, static_cast<float>(m_size.width), static_cast<float>(m_size.height));
    // Points and lines are sized in window pixels so they stay visible however the frame is scaled.
    glUniform1f(m_u_point_size, point_size);
    glBindVertexArray(m_vao);
    // Particles first, outlines and best-pose marks over them: a swarm gathered on a small sign would hide its outline.
    glUniform1i(m_u_round, 1);
    if (m_n_points > 0) GL_CHECK(glDrawArrays(GL_POINTS, 0, m_n_points));
    glUniform1i(m_u_round, 0);
    glLineWidth(line_width);
    if (m_n_line_vertices > 0) GL_CHECK(glDrawArrays(GL_LINES, m_n_points, m_n_line_vertices));
    glBindVertexArray(0);
    glLineWidth(1.0f);
}

} // namespace app::gui
