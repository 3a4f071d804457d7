#pragma once
// Files that readers only ever see complete: the content goes to a temporary beside the destination, which
// is then renamed over it (within one folder a rename replaces the file in one step).
#include <functional>
#include <string>

namespace tracker {

// "<dir>/<stem>.tmp-<pid><ext>" beside `path`. It ends with the destination's extension, ".gz" together
// with the one before it ("x.yml.gz" -> "x.tmp-<pid>.yml.gz"), because OpenCV's writers (imwrite,
// FileStorage, VideoWriter) choose the format from the name.
std::string temp_path_for(const std::string& path);

// Calls `write` with a temporary path (temp_path_for) to fill, then renames the temporary over `path`,
// replacing any file there. The parent folder must exist. When `write` throws, the temporary is removed and
// the exception passes on; when the rename fails, the temporary is removed and std::filesystem::
// filesystem_error is thrown. Either way `path` is left as it was.
void write_atomically(const std::string& path, const std::function<void(const std::string& temp_path)>& write);

} // namespace tracker
