#pragma once
// Helpers of the tracker tests that read files: a file written into the test's temporary folder, and the
// message of the error a call throws.
#include <gtest/gtest.h>

#include <exception>
#include <fstream>
#include <string>

namespace tracker::test {

inline std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

// The message of the `Error` that `f` throws ("" when it throws none); other exceptions pass through.
template <typename Error = std::exception, typename F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

} // namespace tracker::test
