#pragma once
// A linked GLSL program from vertex + fragment sources (without their #version line: gl.h adds it).
// Compile and link status are checked; failures throw with the driver's info log.
#include <string>

#include "gui/gl.h"

namespace app::gui {

class ShaderProgram {
public:
    ShaderProgram(const char* name, const char* vertex_source, const char* fragment_source);
    ~ShaderProgram();
    ShaderProgram(const ShaderProgram&) = delete;
    ShaderProgram& operator=(const ShaderProgram&) = delete;

    void use() const { glUseProgram(m_program); }
    GLint uniform(const char* name) const; // -1 (and a warning once) when the program has no such uniform

private:
    std::string m_name;
    GLuint m_program = 0;
};

} // namespace app::gui
