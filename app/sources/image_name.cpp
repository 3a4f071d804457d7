#include "sources/image_name.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iterator>

namespace app {

bool is_image_name(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    static const char* k_exts[] = {".png", ".jpg", ".jpeg", ".bmp", ".ppm", ".pgm", ".tif", ".tiff", ".webp"};
    return std::any_of(std::begin(k_exts), std::end(k_exts), [&](const char* e) { return ext == e; });
}

} // namespace app
