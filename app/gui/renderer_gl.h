#pragma once
// OpenGL drawing of the frame and its overlay. The frame is a texture drawn by shaders/frame_*.glsl;
// the overlay is one vertex buffer of points and lines drawn by shaders/overlay_*.glsl. The renderer
// knows nothing about trackers: it gets an image and plain geometry.
#include <memory>

#include <opencv2/core.hpp>

#include "core/overlay_geometry.h"
#include "gui/gl.h"
#include "gui/shader.h"

namespace app::gui {

struct Viewport {
    int x = 0, y = 0, width = 0, height = 0; // framebuffer pixels, origin bottom-left (glViewport's)
};

class FrameRenderer {
public:
    FrameRenderer();
    ~FrameRenderer();
    FrameRenderer(const FrameRenderer&) = delete;
    FrameRenderer& operator=(const FrameRenderer&) = delete;

    void upload(const cv::Mat& bgr);  // 8-bit BGR; reallocates the texture only when the size changes
    void draw_frame(const Viewport& viewport, float dim = 1.0f) const;
    void set_overlay(const OverlayGeometry& geometry);
    void draw_overlay(const Viewport& viewport, float point_size, float line_width) const;
    cv::Size frame_size() const { return m_size; }

private:
    std::unique_ptr<ShaderProgram> m_frame_program, m_overlay_program;
    GLint m_u_frame = -1, m_u_dim = -1, m_u_image_size = -1, m_u_point_size = -1, m_u_round = -1;
    GLuint m_texture = 0, m_empty_vao = 0, m_vao = 0, m_vbo = 0;
    cv::Size m_size;
    GLsizei m_n_points = 0, m_n_line_vertices = 0;
    std::size_t m_vbo_capacity = 0; // vertices
};

} // namespace app::gui
