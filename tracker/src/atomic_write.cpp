#include "tracker/atomic_write.h"

#include <unistd.h>

#include <filesystem>

namespace tracker {
namespace fs = std::filesystem;
namespace {

// ".png" of "shot.png", ".yml.gz" of "model.yml.gz", "" of "notes".
std::string extension_of(const fs::path& name) {
    const fs::path last = name.extension();
    if (last != ".gz") return last.string();
    return name.stem().extension().string() + last.string();
}

} // namespace

std::string temp_path_for(const std::string& path) {
    const fs::path p(path);
    const fs::path name = p.filename();
    const std::string ext = extension_of(name);
    const std::string stem = name.string().substr(0, name.string().size() - ext.size());
    return (p.parent_path() / (stem + ".tmp-" + std::to_string(::getpid()) + ext)).string();
}

void write_atomically(const std::string& path, const std::function<void(const std::string& temp_path)>& write) {
    const std::string temp = temp_path_for(path);
    std::error_code ignored;
    try {
        write(temp);
        fs::rename(temp, path);
    } catch (...) {
        fs::remove(temp, ignored);
        throw;
    }
}

} // namespace tracker
