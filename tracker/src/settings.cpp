// TrackerSettings: validation and JSON load/save (unknown keys and bad values name the key).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <type_traits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "swarm/strategy.h"
#include "tracker/assets.h"
#include "tracker/atomic_write.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& key, const std::string& why) {
    throw std::invalid_argument("setting '" + key + "': " + why);
}

// Integers print as integers and reals in their shortest form, so the message shows the value as written.
template <typename T>
std::string shown(T v) {
    if constexpr (std::is_integral_v<T>) {
        return std::to_string(v);
    } else {
        std::ostringstream os;
        os << v;
        return os.str();
    }
}

template <typename T>
void range(const std::string& key, T v, typename std::common_type<T>::type lo, typename std::common_type<T>::type hi) {
    if (!(v >= lo && v <= hi) || !std::isfinite(static_cast<double>(v))) {
        bad(key, "must be in [" + shown(lo) + ", " + shown(hi) + "], got " + shown(v));
    }
}

// One table drives load and save, so the two cannot drift apart.
template <typename F>
void for_each_field(TrackerSettings& s, F&& f) {
    f("particles", s.particles);
    f("generations", s.generations);
    f("detection_swarms_per_category", s.detection_swarms_per_category);
    f("detection_columns", s.detection_columns);
    f("detection_rows", s.detection_rows);
    f("candidate_regions", s.candidate_regions);
    f("candidate_swarms", s.candidate_swarms);
    f("candidate_probe_generations", s.candidate_probe_generations);
    f("w", s.w);
    f("c1", s.c1);
    f("c2", s.c2);
    f("topology", s.topology);
    f("strategy", s.strategy);
    f("backend", s.backend);
    f("gpu_team_warps", s.gpu_team_warps);
    f("gpu_cluster_barrier", s.gpu_cluster_barrier);
    f("seed", s.seed);
    f("detect_threshold", s.detect_threshold);
    f("track_threshold", s.track_threshold);
    f("detect_rotation", s.detect_rotation);
    f("respread_fraction", s.respread_fraction);
    f("angle_respread_fraction", s.angle_respread_fraction);
    f("track_focus_share", s.track_focus_share);
    f("track_focus_scale", s.track_focus_scale);
    f("edge_gain", s.edge_gain);
    f("edge_crossing", s.edge_crossing);
    f("occluder_credit", s.occluder_credit);
    f("depth_filter_gain", s.depth_filter_gain);
    f("angle_memory", s.angle_memory);
    f("angle_prior_px", s.angle_prior_px);
    f("confirm_frames", s.confirm_frames);
    f("max_missed", s.max_missed);
    f("duplicate_iou", s.duplicate_iou);
    f("z_min", s.z_min);
    f("z_max", s.z_max);
    f("x_min", s.x_min);
    f("x_max", s.x_max);
    f("y_min", s.y_min);
    f("y_max", s.y_max);
    f("yaw_range", s.yaw_range);
    f("pitch_range", s.pitch_range);
    f("roll_range", s.roll_range);
    f("horizontal_fov_deg", s.horizontal_fov_deg);
    f("camera_file", s.camera_file);
    f("models_dir", s.models_dir);
    f("verifier", s.verifier);
    f("candidate_ranker", s.candidate_ranker);
    f("classes", s.classes);
    f("keep_particles", s.keep_particles);
}

template <typename T>
void read_value(const std::string& key, const json& v, T& out) {
    if constexpr (std::is_same_v<T, bool>) {
        if (!v.is_boolean()) {
            bad(key, "must be true or false");
        }
    } else if constexpr (std::is_integral_v<T>) {
        if (!v.is_number_integer() || (std::is_unsigned_v<T> && v.get<long long>() < 0)) {
            bad(key, "must be an integer");
        }
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!v.is_number()) {
            bad(key, "must be a number");
        }
    } else {
        if (!v.is_string()) {
            bad(key, "must be a string");
        }
    }
    out = v.get<T>();
}

} // namespace

void TrackerSettings::validate() const {
    range("particles", particles, 2, 4096);
    range("generations", generations, 1, 10000);
    range("detection_swarms_per_category", detection_swarms_per_category, 0, 64);
    range("detection_columns", detection_columns, 0, 16); // 0: auto
    range("detection_rows", detection_rows, 0, 16);
    range("candidate_regions", candidate_regions, 0, 2000); // 0: no candidate pass
    range("candidate_swarms", candidate_swarms, 0, 1024);   // 0: auto
    range("candidate_probe_generations", candidate_probe_generations, 1, 1000);
    range("w", w, -1.0, 1.5);
    range("c1", c1, 0.0, 5.0);
    range("c2", c2, 0.0, 5.0);
    if (topology != "ring" && topology != "global") {
        bad("topology", "must be ring or global");
    }
    if (!swarm::parse_strategy(strategy)) {
        bad("strategy", "'" + strategy + "' is not an engine strategy (see swarmtrack bench --help)");
    }
    if (!swarm::parse_backend(backend)) {
        bad("backend", "must be cpu, cuda or auto");
    }
    if (gpu_team_warps != 0 && gpu_team_warps != 1 && gpu_team_warps != 2 && gpu_team_warps != 4) {
        bad("gpu_team_warps", "must be 0 (auto), 1, 2 or 4");
    }
    range("detect_threshold", detect_threshold, 0.0, 2.0);
    range("track_threshold", track_threshold, 0.0, 1.0);
    range("respread_fraction", respread_fraction, 0.0, 1.0);
    range("angle_respread_fraction", angle_respread_fraction, 0.0, 1.0);
    range("track_focus_share", track_focus_share, 0.0, 1.0);
    range("track_focus_scale", track_focus_scale, 0.01, 1.0);
    range("edge_gain", edge_gain, 0.05, 100.0);
    range("edge_crossing", edge_crossing, 0.0, 1.0);
    range("occluder_credit", occluder_credit, 0.0, 1.0);
    range("depth_filter_gain", depth_filter_gain, 0.05, 1.0);
    range("angle_memory", angle_memory, 0.0, 1.0);
    range("angle_prior_px", angle_prior_px, 0.0, 10000.0);
    range("confirm_frames", confirm_frames, 1, 100);
    range("max_missed", max_missed, 0, 1000);
    range("duplicate_iou", duplicate_iou, 0.0, 1.0);
    range("z_min", z_min, 0.5, 1000.0);
    range("z_max", z_max, z_min + 0.1, 2000.0);
    range("x_min", x_min, -1000.0, 1000.0);
    range("x_max", x_max, x_min + 0.01, 1000.0);
    range("y_min", y_min, -1000.0, 1000.0);
    range("y_max", y_max, y_min + 0.01, 1000.0);
    range("yaw_range", yaw_range, 0.0, 89.0);
    range("pitch_range", pitch_range, 0.0, 89.0);
    range("roll_range", roll_range, 0.0, 180.0);
    range("horizontal_fov_deg", horizontal_fov_deg, 1.0, 179.0);
    if (categories.empty()) {
        bad("categories", "needs at least one category");
    }
}

namespace {

// A bare name that is no file ("cpu-quick") is a preset shipped in the assets' presets/ folder.
std::string config_path(const std::string& name) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (name.empty() || fs::exists(name, ec) || name.find('/') != std::string::npos) {
        return name;
    }
    try {
        const fs::path preset = fs::path(assets_dir()) / "presets" / (name + ".json");
        return fs::exists(preset, ec) ? preset.string() : name;
    } catch (const std::runtime_error&) { // no assets: report the name as the missing file
        return name;
    }
}

std::string shipped_presets() {
    namespace fs = std::filesystem;
    std::vector<std::string> names;
    try {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(fs::path(assets_dir()) / "presets", ec)) {
            if (e.path().extension() == ".json") {
                names.push_back(e.path().stem().string());
            }
        }
    } catch (const std::runtime_error&) {
        return "none";
    }
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out.empty() ? "none" : out;
}

} // namespace

TrackerSettings TrackerSettings::load(const std::string& name) {
    const std::string path = config_path(name);
    std::ifstream in(path);
    if (!in) {
        throw std::invalid_argument(path + ": cannot open the tracker config; check the path, or name a shipped preset (" +
                                    shipped_presets() + ")");
    }
    json doc;
    try {
        doc = json::parse(in);
    } catch (const json::exception& e) { // parse_error, and out_of_range for numbers too large (found by fuzzing)
        throw std::invalid_argument(path + ": not valid JSON (" + e.what() + ")");
    }
    if (!doc.is_object()) {
        throw std::invalid_argument(path + ": the tracker config must be a JSON object");
    }
    TrackerSettings s;
    try {
        for (const auto& [key, value] : doc.items()) {
            bool known = false;
            for_each_field(s, [&, &key = key, &value = value](const char* name, auto& field) {
                if (key == name) {
                    read_value(key, value, field);
                    known = true;
                }
            });
            if (key == "categories") {
                if (!value.is_array()) {
                    bad(key, "must be an array of category names");
                }
                s.categories.clear();
                for (const auto& c : value) {
                    auto cat = c.is_string() ? parse_category(c.get<std::string>()) : std::nullopt;
                    if (!cat) {
                        bad(key, "entries must be prohibitory, danger, mandatory, give-way or stop");
                    }
                    s.categories.push_back(*cat);
                }
                known = true;
            }
            if (!known) {
                bad(key, "unknown key (check the spelling against `TrackerSettings` / a saved config)");
            }
        }
        s.validate();
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(path + ": " + e.what());
    }
    return s;
}

void TrackerSettings::save(const std::string& path) const {
    validate();
    json doc = json::object();
    TrackerSettings copy = *this;
    for_each_field(copy, [&](const char* name, auto& field) { doc[name] = field; });
    doc["categories"] = json::array();
    for (Category c : categories) {
        doc["categories"].push_back(std::string(to_string(c)));
    }
    const std::string cannot_write = path + ": cannot write the tracker config; check the folder";
    try {
        write_atomically(path, [&](const std::string& temp) {
            std::ofstream out(temp);
            if (!out || !(out << doc.dump(2) << "\n")) throw std::runtime_error(cannot_write);
        });
    } catch (const std::filesystem::filesystem_error&) {
        throw std::runtime_error(cannot_write);
    }
}

} // namespace tracker
