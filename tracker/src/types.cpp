#include "tracker/types.h"

namespace tracker {
namespace {
constexpr std::string_view k_category_names[k_category_count] = {"prohibitory", "danger", "mandatory", "give-way",
                                                                 "stop"};
constexpr std::string_view k_colour_names[k_colour_count] = {"red", "blue", "white", "yellow", "other"};
} // namespace

std::string_view to_string(Category c) { return k_category_names[static_cast<int>(c)]; }

std::optional<Category> parse_category(std::string_view name) {
    for (int i = 0; i < k_category_count; ++i) {
        if (k_category_names[i] == name) {
            return static_cast<Category>(i);
        }
    }
    if (name == "giveway" || name == "give_way") {
        return Category::GiveWay;
    }
    return std::nullopt;
}

std::string_view to_string(ColourClass c) { return k_colour_names[static_cast<int>(c)]; }

std::optional<ColourClass> parse_colour(std::string_view name) {
    for (int i = 0; i < k_colour_count; ++i) {
        if (k_colour_names[i] == name) {
            return static_cast<ColourClass>(i);
        }
    }
    return std::nullopt;
}

} // namespace tracker
