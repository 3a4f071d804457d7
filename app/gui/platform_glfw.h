#pragma once
// The GLFW side: a window with an OpenGL 3.3 core context, ImGui's GLFW backend, input and swapping.
#include <string>

struct GLFWwindow;

namespace app::gui {

class Window {
public:
    // Throws std::runtime_error (one line, with GLFW's reason) when no window or GL 3.3 context can be made.
    Window(const std::string& title, int width, int height);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    bool should_close() const;
    void request_close();
    void poll_events() const;
    void swap() const;
    void framebuffer_size(int& width, int& height) const;
    void window_size(int& width, int& height) const;
    bool key_pressed(int glfw_key); // edge-triggered: true once per press
    GLFWwindow* handle() const { return m_window; }

private:
    GLFWwindow* m_window = nullptr;
    bool m_key_down[512] = {};
};

} // namespace app::gui
