#pragma once
// The progress line on stderr: frames done, fps, ETA. Redrawn in place on a terminal, one line every
// few seconds otherwise (logs, CI).
#include <chrono>
#include <string>

namespace app {

class Progress {
public:
    Progress(std::string what, long long total, bool enabled);
    void update(long long done);
    void finish(long long done);
    double fps(long long done) const;

private:
    std::string line(long long done) const;
    std::string m_what;
    long long m_total;
    bool m_enabled;
    bool m_tty;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_last;
};

} // namespace app
