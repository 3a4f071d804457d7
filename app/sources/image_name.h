#pragma once
#include <string>

namespace app {

// Whether a file name has an image extension an image folder reads (case-insensitive).
bool is_image_name(const std::string& path);

} // namespace app
