#include "tracker/atomic_write.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {
namespace fs = std::filesystem;

// A fresh, empty folder of this test's own.
fs::path empty_folder(const std::string& name) {
    const fs::path dir = fs::path(::testing::TempDir()) / ("atomic_write_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

int files_in(const fs::path& dir) {
    int n = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
    return n;
}

TEST(AtomicWrite, TempNameSitsBesideAndKeepsTheExtension) {
    const std::string pid = std::to_string(::getpid());
    EXPECT_EQ(tracker::temp_path_for("out/shot.png"), "out/shot.tmp-" + pid + ".png");
    EXPECT_EQ(tracker::temp_path_for("assets/signs.yml.gz"), "assets/signs.tmp-" + pid + ".yml.gz");
    EXPECT_EQ(tracker::temp_path_for("notes"), "notes.tmp-" + pid);
}

TEST(AtomicWrite, DestinationAppearsOnlyComplete) {
    const fs::path dir = empty_folder("complete");
    const fs::path dest = dir / "result.json";
    tracker::write_atomically(dest.string(), [&](const std::string& temp) {
        EXPECT_EQ(fs::path(temp).parent_path(), dir) << "the temporary is beside the destination";
        std::ofstream(temp) << "first half, ";
        EXPECT_FALSE(fs::exists(dest)) << "nothing at the destination while it is written";
        std::ofstream(temp, std::ios::app) << "second half";
    });
    EXPECT_EQ(read_text(dest), "first half, second half");
    EXPECT_EQ(files_in(dir), 1) << "no temporary left";
}

TEST(AtomicWrite, ThrowingWriterLeavesNoFile) {
    const fs::path dir = empty_folder("throws");
    const fs::path dest = dir / "result.json";
    EXPECT_THROW(tracker::write_atomically(dest.string(),
                                           [](const std::string& temp) {
                                               std::ofstream(temp) << "half";
                                               throw std::runtime_error("writer failed");
                                           }),
                 std::runtime_error);
    EXPECT_EQ(files_in(dir), 0) << "neither the destination nor a temporary";
}

TEST(AtomicWrite, ThrowingWriterKeepsTheOldFile) {
    const fs::path dir = empty_folder("keeps");
    const fs::path dest = dir / "result.json";
    std::ofstream(dest) << "old";
    EXPECT_THROW(tracker::write_atomically(dest.string(), [](const std::string&) { throw std::runtime_error("no"); }),
                 std::runtime_error);
    EXPECT_EQ(read_text(dest), "old");
    EXPECT_EQ(files_in(dir), 1);
}

TEST(AtomicWrite, ReplacesAnExistingFile) {
    const fs::path dir = empty_folder("replaces");
    const fs::path dest = dir / "result.json";
    std::ofstream(dest) << "old and longer";
    tracker::write_atomically(dest.string(), [](const std::string& temp) { std::ofstream(temp) << "new"; });
    EXPECT_EQ(read_text(dest), "new");
    EXPECT_EQ(files_in(dir), 1);
}

TEST(AtomicWrite, FailedRenameThrowsAndLeavesNoTemporary) {
    const fs::path dir = empty_folder("rename");
    const fs::path dest = dir / "taken";
    fs::create_directories(dest / "inside"); // a non-empty folder cannot be replaced by a file
    EXPECT_THROW(tracker::write_atomically(dest.string(), [](const std::string& temp) { std::ofstream(temp) << "x"; }),
                 fs::filesystem_error);
    EXPECT_EQ(files_in(dir), 1) << "only the folder that was there";
    EXPECT_TRUE(fs::is_directory(dest));
}

} // namespace
