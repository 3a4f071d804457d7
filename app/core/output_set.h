#pragma once
// A set of output files written under temporary names in the output folder and renamed into place
// only when all of them are complete; dropped unfinished (temporaries removed) otherwise.
#include <string>
#include <vector>

namespace app {

class OutputSet {
public:
    // Creates `dir` if needed. Throws std::runtime_error (one line) when the folder cannot be created or
    // written, or when one of `names` already exists there and `force` is false.
    OutputSet(std::string dir, const std::vector<std::string>& names, bool force);
    ~OutputSet(); // removes the temporaries unless commit() ran
    OutputSet(const OutputSet&) = delete;
    OutputSet& operator=(const OutputSet&) = delete;

    // Where to write `name` now, e.g. DIR/annotated.tmp-123.mp4 (the extension is kept for writers that
    // pick a format from it).
    std::string temp_path(const std::string& name) const;
    std::string final_path(const std::string& name) const;
    void commit(); // renames every temporary that exists into place

private:
    std::string m_dir;
    std::vector<std::string> m_names;
    bool m_created_dir = false;
    bool m_committed = false;
};

} // namespace app
