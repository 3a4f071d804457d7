#pragma once
// Text from a user's file as an error message shows it.
#include <string>

#include <nlohmann/json.hpp>

namespace tracker {

// JSON string escapes without the quotes, so a control character in the text (an escaped newline in a JSON
// key or value, found by fuzzing) cannot break the message's one line; bytes that are not UTF-8 show as U+FFFD.
inline std::string printable(const std::string& text) {
    const std::string quoted = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return quoted.substr(1, quoted.size() - 2);
}

} // namespace tracker
