#include "core/output_set.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "tracker/atomic_write.h"

namespace app {
namespace fs = std::filesystem;

OutputSet::OutputSet(std::string dir, const std::vector<std::string>& names, bool force)
    : m_dir(std::move(dir)), m_names(names) {
    std::error_code ec;
    if (!fs::exists(m_dir, ec)) {
        if (!fs::create_directories(m_dir, ec) || ec) {
            throw std::runtime_error("--out " + m_dir + ": cannot create the folder (" + ec.message() +
                                     "); choose a writable location");
        }
        m_created_dir = true;
    } else if (!fs::is_directory(m_dir, ec)) {
        throw std::runtime_error("--out " + m_dir + ": exists and is not a folder; choose another path");
    }
    if (::access(m_dir.c_str(), W_OK | X_OK) != 0) {
        throw std::runtime_error("--out " + m_dir + ": folder is not writable; choose another location or fix its permissions");
    }
    for (const auto& n : m_names) {
        if (!force && fs::exists(final_path(n), ec)) {
            throw std::runtime_error("--out " + m_dir + ": " + n + " already exists; pass --force to overwrite");
        }
    }
}

OutputSet::~OutputSet() {
    if (m_committed) return;
    std::error_code ec;
    for (const auto& n : m_names) fs::remove(temp_path(n), ec);
    if (m_created_dir) fs::remove(m_dir, ec); // only succeeds when empty: never deletes anything of the user's
}

std::string OutputSet::temp_path(const std::string& name) const { return tracker::temp_path_for(final_path(name)); }

std::string OutputSet::final_path(const std::string& name) const { return (fs::path(m_dir) / name).string(); }

void OutputSet::commit() {
    for (const auto& n : m_names) {
        std::error_code ec;
        if (!fs::exists(temp_path(n), ec)) continue;
        fs::rename(temp_path(n), final_path(n), ec);
        if (ec) throw std::runtime_error("output " + final_path(n) + ": rename failed (" + ec.message() + ")");
    }
    m_committed = true;
}

} // namespace app
