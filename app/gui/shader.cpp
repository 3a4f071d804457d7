#include "gui/shader.h"

#include <cstdio>
#include <stdexcept>
#include <vector>

namespace app::gui {

void check_gl_error(const char* call, const char* file, int line) {
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
        std::fprintf(stderr, "swarmtrack: GL error 0x%04x after %s (%s:%d)\n", e, call, file, line);
    }
}

namespace {

std::string info_log(GLuint object, bool program) {
    GLint length = 0;
    program ? glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length) : glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<std::size_t>(length > 1 ? length : 1), '\0');
    program ? glGetProgramInfoLog(object, length, nullptr, log.data())
            : glGetShaderInfoLog(object, length, nullptr, log.data());
    std::string text = log.data();
    for (char& c : text) {
        if (c == '\n') c = ' '; // keep the error one line
    }
    return text;
}

GLuint compile(const std::string& name, GLenum type, const char* body) {
    const std::string source = std::string(k_glsl_version) + "\n" + body;
    const char* text = source.c_str();
    const GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        const std::string log = info_log(shader, false);
        glDeleteShader(shader);
        throw std::runtime_error("shader " + name + (type == GL_VERTEX_SHADER ? " (vertex)" : " (fragment)") +
                                 " does not compile: " + log);
    }
    return shader;
}

} // namespace

ShaderProgram::ShaderProgram(const char* name, const char* vertex_source, const char* fragment_source) : m_name(name) {
    const GLuint vs = compile(m_name, GL_VERTEX_SHADER, vertex_source);
    GLuint fs = 0;
    try {
        fs = compile(m_name, GL_FRAGMENT_SHADER, fragment_source);
    } catch (...) {
        glDeleteShader(vs);
        throw;
    }
    m_program = glCreateProgram();
    glAttachShader(m_program, vs);
    glAttachShader(m_program, fs);
    glLinkProgram(m_program);
    glDeleteShader(vs); // the program keeps them alive while attached
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(m_program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        const std::string log = info_log(m_program, true);
        glDeleteProgram(m_program);
        throw std::runtime_error("shader program " + m_name + " does not link: " + log);
    }
}

ShaderProgram::~ShaderProgram() {
    if (m_program != 0) glDeleteProgram(m_program);
}

GLint ShaderProgram::uniform(const char* name) const {
    const GLint location = glGetUniformLocation(m_program, name);
    if (location < 0) std::fprintf(stderr, "swarmtrack: warning: shader %s has no uniform %s\n", m_name.c_str(), name);
    return location;
}

} // namespace app::gui
