#pragma once
// OpenGL for the GUI: core-profile prototypes straight from libGL (Mesa and NVIDIA export every GL 3.3
// entry point on Linux, so no loader is needed), the GLSL version chosen in one place, and an error
// check that compiles away in release builds.
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

namespace app::gui {

inline constexpr const char* k_glsl_version = "#version 330 core";
inline constexpr int k_gl_major = 3, k_gl_minor = 3;

void check_gl_error(const char* call, const char* file, int line);

} // namespace app::gui

#ifdef NDEBUG
#define GL_CHECK(call) call
#else
#define GL_CHECK(call)                                              \
    do {                                                            \
        call;                                                       \
        ::app::gui::check_gl_error(#call, __FILE__, __LINE__);      \
    } while (0)
#endif
