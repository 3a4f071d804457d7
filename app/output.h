#pragma once
// Output helpers shared by the subcommands: atomic file writes and plain-text tables.
#include <string>
#include <vector>

namespace app {

// Writes `content` to `path` through a temporary name and a rename, so a reader never sees half a file.
// Throws std::runtime_error naming the path when the folder is missing or not writable.
void write_file_atomically(const std::string& path, const std::string& content);

// Throws when `path` cannot be created (missing folder, no permission), before any work is done.
void check_writable(const std::string& path, const std::string& what);

class Table {
public:
    explicit Table(std::vector<std::string> header) : m_header(std::move(header)) {}
    void add(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
    std::string markdown() const;
    std::string csv() const;
    const std::vector<std::string>& header() const { return m_header; }
    const std::vector<std::vector<std::string>>& rows() const { return m_rows; }

private:
    std::vector<std::string> m_header;
    std::vector<std::vector<std::string>> m_rows;
};

std::string format_double(double v, int significant = 4);
std::string today_iso();

} // namespace app
