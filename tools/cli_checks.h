#pragma once
// Command-line checks the research tools share.
#include <cstdlib>
#include <string>

#include <CLI/CLI.hpp>

namespace tools {

// A number above 0 (an SVM's C or gamma, a stride). Refused as the command line is read, in words, rather than by
// OpenCV's training after minutes of feature extraction; CLI11's own PositiveNumber words its refusal as a range
// ending in a 309-digit number.
inline CLI::Validator above_zero() {
    return CLI::Validator(
        [](std::string& value) {
            char* end = nullptr;
            const double v = std::strtod(value.c_str(), &end);
            const bool ok = end != value.c_str() && *end == '\0' && v > 0;
            return ok ? std::string() : "must be a number above 0, not " + value;
        },
        "> 0");
}

} // namespace tools
