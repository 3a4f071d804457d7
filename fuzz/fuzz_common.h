#pragma once
// Shared by the fuzz targets: the project's parsers read files, so each input is written to a private
// temporary file first; and the one rule every target checks: bad input may only end in the documented
// one-line error (std::runtime_error / std::invalid_argument / swarm::Error). Anything else (another
// exception type, an empty or multi-line message, a sanitizer report, a crash) is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <typeinfo>

namespace fuzz {

class TempFile {
public:
    TempFile(const uint8_t* data, size_t size, const char* extension) {
        // One name per process and target: libFuzzer runs inputs one after another in a process.
        m_path = "/tmp/swarmtrack-fuzz-" + std::to_string(::getpid()) + extension;
        std::FILE* f = std::fopen(m_path.c_str(), "wb");
        if (!f) {
            std::fprintf(stderr, "fuzz: cannot write %s\n", m_path.c_str());
            std::abort();
        }
        if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
        std::fclose(f);
    }
    ~TempFile() { std::remove(m_path.c_str()); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

[[noreturn]] inline void finding(const char* what, const std::exception& e) {
    std::fprintf(stderr, "fuzz finding: %s: %s: %s\n", what, typeid(e).name(), e.what());
    std::abort();
}

// A documented error: non-empty, one line.
inline void check_message(const std::exception& e) {
    const std::string m = e.what();
    if (m.empty()) finding("empty error message", e);
    if (m.find('\n') != std::string::npos) finding("multi-line error message", e);
}

// Runs `f`; the only exceptions allowed out are std::runtime_error and std::invalid_argument (the
// engine's swarm::Error derives from std::runtime_error) with a one-line message.
template <typename F>
void expect_clean(F&& f) {
    try {
        f();
    } catch (const std::runtime_error& e) {
        check_message(e);
    } catch (const std::invalid_argument& e) {
        check_message(e);
    } catch (const std::exception& e) {
        finding("undocumented exception type", e);
    }
}

} // namespace fuzz
