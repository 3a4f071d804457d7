#include "gui/platform_glfw.h"

#define GLFW_INCLUDE_NONE // GL comes from gui/gl.h (core profile prototypes)
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>

#include <stdexcept>

#include "gui/gl.h"

namespace app::gui {
namespace {

std::string g_last_glfw_error;

void on_glfw_error(int code, const char* description) {
    g_last_glfw_error = std::string(description) + " (GLFW error " + std::to_string(code) + ")";
}

} // namespace

Window::Window(const std::string& title, int width, int height) {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        throw std::runtime_error("track: cannot open the display: " + g_last_glfw_error +
                                 "; run under a desktop session or xvfb-run, or pass --headless");
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, k_gl_major);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, k_gl_minor);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    m_window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (m_window == nullptr) {
        glfwTerminate();
        throw std::runtime_error("track: no OpenGL 3.3 core context: " + g_last_glfw_error +
                                 "; update the graphics driver (Mesa works), or pass --headless");
    }
    glfwMakeContextCurrent(m_window);
    glfwSwapInterval(0); // the tracker sets the pace; vsync would cap and skew the timing plot

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // no imgui.ini dropped into the working folder
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(m_window, true);
}

Window::~Window() {
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(m_window);
    glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(m_window) != 0; }
void Window::request_close() { glfwSetWindowShouldClose(m_window, GLFW_TRUE); }
void Window::poll_events() const { glfwPollEvents(); }
void Window::swap() const { glfwSwapBuffers(m_window); }
void Window::framebuffer_size(int& width, int& height) const { glfwGetFramebufferSize(m_window, &width, &height); }
void Window::window_size(int& width, int& height) const { glfwGetWindowSize(m_window, &width, &height); }

bool Window::key_pressed(int key) {
    if (key < 0 || key >= 512) return false;
    const bool down = glfwGetKey(m_window, key) == GLFW_PRESS;
    const bool pressed = down && !m_key_down[key];
    m_key_down[key] = down;
    return pressed;
}

} // namespace app::gui
