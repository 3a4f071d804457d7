#include "output.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tracker/atomic_write.h"

namespace app {
namespace fs = std::filesystem;

void check_writable(const std::string& path, const std::string& what) {
    const fs::path p(path);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        throw std::runtime_error(what + " " + path + ": folder " + dir.string() + " does not exist; create it first");
    }
    if (::access(dir.c_str(), W_OK) != 0) {
        throw std::runtime_error(what + " " + path + ": folder " + dir.string() +
                                 " is not writable; choose another location");
    }
}

void write_file_atomically(const std::string& path, const std::string& content) {
    check_writable(path, "output");
    try {
        tracker::write_atomically(path, [&](const std::string& temp) {
            std::ofstream out(temp, std::ios::binary | std::ios::trunc);
            out << content;
            out.flush();
            if (!out) throw std::runtime_error("output " + path + ": write failed (" + std::strerror(errno) + ")");
        });
    } catch (const fs::filesystem_error& e) {
        throw std::runtime_error("output " + path + ": rename failed (" + e.code().message() + ")");
    }
}

std::string Table::markdown() const {
    std::vector<std::size_t> width(m_header.size());
    for (std::size_t c = 0; c < m_header.size(); ++c) {
        width[c] = m_header[c].size();
        for (const auto& r : m_rows) {
            width[c] = std::max(width[c], c < r.size() ? r[c].size() : 0);
        }
    }
    std::ostringstream os;
    auto line = [&](const std::vector<std::string>& cells) {
        os << '|';
        for (std::size_t c = 0; c < width.size(); ++c) {
            const std::string cell = c < cells.size() ? cells[c] : "";
            os << ' ' << cell << std::string(width[c] - cell.size(), ' ') << " |";
        }
        os << '\n';
    };
    line(m_header);
    os << '|';
    for (const auto w : width) {
        os << std::string(w + 2, '-') << '|';
    }
    os << '\n';
    for (const auto& r : m_rows) {
        line(r);
    }
    return os.str();
}

std::string Table::csv() const {
    std::ostringstream os;
    auto line = [&](const std::vector<std::string>& cells) {
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const bool quote = cells[c].find_first_of(",\"\n") != std::string::npos;
            if (c) os << ',';
            if (quote) {
                std::string q = cells[c];
                std::size_t pos = 0;
                while ((pos = q.find('"', pos)) != std::string::npos) {
                    q.insert(pos, 1, '"');
                    pos += 2;
                }
                os << '"' << q << '"';
            } else {
                os << cells[c];
            }
        }
        os << '\n';
    };
    line(m_header);
    for (const auto& r : m_rows) {
        line(r);
    }
    return os.str();
}

std::string format_double(double v, int significant) {
    std::ostringstream os;
    os.precision(significant);
    os << v;
    return os.str();
}

std::string today_iso() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

} // namespace app
