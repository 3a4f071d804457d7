// The panels' state logic: plain functions over plain structs, unit-tested without a window.
#include <algorithm>
#include <iterator>

#include "gui/panels.h"
#include "swarm/strategy.h"

namespace app::gui {

bool category_enabled(const std::vector<tracker::Category>& list, tracker::Category c) {
    return std::find(list.begin(), list.end(), c) != list.end();
}

void set_category_enabled(std::vector<tracker::Category>& list, tracker::Category c, bool enabled) {
    std::vector<tracker::Category> out;
    for (int i = 0; i < tracker::k_category_count; ++i) {
        const auto cat = static_cast<tracker::Category>(i);
        const bool keep = cat == c ? enabled : category_enabled(list, cat);
        if (keep) out.push_back(cat);
    }
    list = std::move(out);
}

std::string save_preset(const tracker::TrackerSettings& settings, const std::string& path) {
    if (path.empty()) return "error: give the preset a file name";
    try {
        settings.save(path); // validates first, and replaces the file only once it is written in full
    } catch (const std::exception& e) {
        return "error: preset " + path + ": " + e.what();
    }
    return "saved " + path;
}

bool load_preset(const std::string& path, tracker::TrackerSettings& settings, std::string& message) {
    try {
        tracker::TrackerSettings loaded = tracker::TrackerSettings::load(path);
        loaded.keep_particles = settings.keep_particles; // an output choice of this view, not part of a preset
        settings = loaded;
    } catch (const std::exception& e) {
        message = std::string("error: ") + e.what();
        return false;
    }
    message = "loaded " + path;
    return true;
}

std::vector<std::string> strategy_choices() {
    std::vector<std::string> out = {"auto"};
    for (const auto s : swarm::all_strategies()) out.emplace_back(swarm::to_string(s));
    return out;
}

unsigned int stage_colour(Stage s) {
    // Muted tones, none equal to an overlay colour (the GUI test tells them apart by exact colour).
    constexpr unsigned int k_colours[] = {
        0xFF9C7A5Au, // capture    (ABGR)
        0xFF5AA0D2u, // upload
        0xFF8CC85Au, // preprocess
        0xFF3C6EE6u, // search
        0xFFC896B4u, // readback
        0xFFC8C850u, // candidates
        0xFF5AD2E6u, // classes
        0xFFB4B4B4u, // render
    };
    static_assert(std::size(k_colours) == k_stage_count, "a colour for every stage");
    return k_colours[static_cast<std::size_t>(s)];
}

} // namespace app::gui
