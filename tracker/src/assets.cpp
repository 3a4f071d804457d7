#include "tracker/assets.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace tracker {
namespace fs = std::filesystem;

std::string executable_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

std::string assets_dir() {
    if (const char* env = std::getenv("SWARMTRACK_ASSETS"); env != nullptr && *env != '\0') {
        std::error_code ec;
        if (!fs::is_directory(env, ec)) {
            throw std::runtime_error(std::string("SWARMTRACK_ASSETS=") + env +
                                     ": not a folder; point it at swarmtrack's assets folder or unset it");
        }
        return env;
    }
    std::error_code ec;
    const std::string exe = executable_dir();
    if (!exe.empty()) {
        const fs::path installed = fs::path(exe) / ".." / "share" / "swarmtrack";
        if (fs::is_directory(installed / "signs", ec)) {
            return fs::weakly_canonical(installed, ec).string();
        }
    }
    // Only a binary inside its build folder reads the source tree: an installed copy must not depend on a tree
    // that may move or go.
    const std::string build_dir = TRACKER_BUILD_DIR;
    const bool in_build_tree = !exe.empty() && exe.compare(0, build_dir.size(), build_dir) == 0;
    if (in_build_tree && fs::is_directory(fs::path(TRACKER_ASSETS_DIR) / "signs", ec)) {
        return TRACKER_ASSETS_DIR;
    }
    throw std::runtime_error("swarmtrack's assets (sign models) not found beside the binary (" + exe +
                             "/../share/swarmtrack) nor in the source tree (" TRACKER_ASSETS_DIR
                             "); reinstall, or set SWARMTRACK_ASSETS to the assets folder");
}

} // namespace tracker
