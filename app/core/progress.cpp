#include "core/progress.h"

#include <unistd.h>

#include <cstdio>

namespace app {
using Clock = std::chrono::steady_clock;

Progress::Progress(std::string what, long long total, bool enabled)
    : m_what(std::move(what)), m_total(total), m_enabled(enabled), m_tty(::isatty(2) != 0), m_start(Clock::now()),
      m_last(m_start) {}

double Progress::fps(long long done) const {
    const double s = std::chrono::duration<double>(Clock::now() - m_start).count();
    return s > 0 ? static_cast<double>(done) / s : 0.0;
}

std::string Progress::line(long long done) const {
    char buf[160];
    const double f = fps(done);
    if (m_total > 0) {
        const double eta = f > 0 ? static_cast<double>(m_total - done) / f : 0.0;
        std::snprintf(buf, sizeof buf, "%s: %lld/%lld frames, %.1f fps, ETA %.0f s", m_what.c_str(), done, m_total, f,
                      eta);
    } else {
        std::snprintf(buf, sizeof buf, "%s: %lld frames, %.1f fps", m_what.c_str(), done, f);
    }
    return buf;
}

void Progress::update(long long done) {
    if (!m_enabled) return;
    const auto now = Clock::now();
    const auto every = m_tty ? std::chrono::milliseconds(250) : std::chrono::milliseconds(5000);
    if (now - m_last < every) return;
    m_last = now;
    std::fprintf(stderr, m_tty ? "\r%s\033[K" : "%s\n", line(done).c_str());
}

void Progress::finish(long long done) {
    if (!m_enabled) return;
    std::fprintf(stderr, m_tty ? "\r%s\033[K\n" : "%s\n", line(done).c_str());
}

} // namespace app
