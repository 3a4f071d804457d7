// TrackerSettings: validation and JSON load/save (unknown keys and bad values name the key). The file's keys
// are flat; the engine's names (topology, strategy, backend) are parsed into its enums as they are read.
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
#include "printable_text.h"

namespace tracker {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& key, const std::string& why) {
    throw std::invalid_argument("setting '" + printable(key) + "': " + why);
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
    f("particles", s.search.particles);
    f("generations", s.search.generations);
    f("detection_swarms_per_category", s.search.detection_swarms_per_category);
    f("detection_columns", s.search.detection_columns);
    f("detection_rows", s.search.detection_rows);
    f("candidate_regions", s.search.candidate_regions);
    f("candidate_swarms", s.search.candidate_swarms);
    f("verified_swarms", s.search.verified_swarms);
    f("verified_search_share", s.search.verified_search_share);
    f("verified_regions", s.search.verified_regions);
    f("candidate_probe_generations", s.search.candidate_probe_generations);
    f("detection_generations", s.search.detection_generations);
    f("candidate_interval", s.search.candidate_interval);
    f("w", s.search.w);
    f("c1", s.search.c1);
    f("c2", s.search.c2);
    f("topology", s.search.topology);
    f("strategy", s.engine.strategy);
    f("backend", s.engine.backend);
    f("gpu_team_warps", s.engine.gpu_team_warps);
    f("gpu_cluster_barrier", s.engine.gpu_cluster_barrier);
    f("seed", s.search.seed);
    f("detect_threshold", s.fitness.detect_threshold);
    f("verified_threshold", s.fitness.verified_threshold);
    f("small_find_threshold", s.fitness.small_find_threshold);
    f("track_threshold", s.fitness.track_threshold);
    f("detect_rotation", s.search.detect_rotation);
    f("face_regions", s.search.face_regions);
    f("stacked_regions", s.search.stacked_regions);
    f("respread_fraction", s.tracking.respread_fraction);
    f("angle_respread_fraction", s.tracking.angle_respread_fraction);
    f("track_focus_share", s.tracking.track_focus_share);
    f("track_focus_scale", s.tracking.track_focus_scale);
    f("edge_gain", s.fitness.edge_gain);
    f("edge_crossing", s.fitness.edge_crossing);
    f("occluder_credit", s.fitness.occluder_credit);
    f("yellow_interior", s.fitness.yellow_interior);
    f("cover_hue", s.fitness.cover_hue);
    f("group_floor", s.fitness.group_floor);
    f("rim_floor", s.fitness.rim_floor);
    f("paint_blur", s.fitness.paint_blur);
    f("depth_filter_gain", s.tracking.depth_filter_gain);
    f("angle_memory", s.tracking.angle_memory);
    f("angle_prior_px", s.tracking.angle_prior_px);
    f("confirm_frames", s.tracking.confirm_frames);
    f("max_missed", s.tracking.max_missed);
    f("verifier_refusals", s.tracking.verifier_refusals);
    f("hide_refused", s.tracking.hide_refused);
    f("duplicate_iou", s.tracking.duplicate_iou);
    f("z_min", s.frustum.z_min);
    f("z_max", s.frustum.z_max);
    f("x_min", s.frustum.x_min);
    f("x_max", s.frustum.x_max);
    f("y_min", s.frustum.y_min);
    f("y_max", s.frustum.y_max);
    f("yaw_range", s.frustum.yaw_range);
    f("pitch_range", s.frustum.pitch_range);
    f("roll_range", s.frustum.roll_range);
    f("min_sign_px", s.frustum.min_sign_px);
    f("horizontal_fov_deg", s.camera.horizontal_fov_deg);
    f("camera_file", s.camera.camera_file);
    f("models_dir", s.signs.models_dir);
    f("verifier", s.signs.verifier);
    f("candidate_ranker", s.signs.candidate_ranker);
    f("classes", s.signs.classes);
    f("keep_particles", s.keep_particles);
}

// The engine's enums are held as enums and named in the file; a bad name is refused with the names allowed.
std::string_view name_of(swarm::Topology t) { return to_string(t); }
std::string_view name_of(swarm::Strategy s) { return swarm::to_string(s); }
std::string_view name_of(swarm::Backend b) { return swarm::to_string(b); }

void parse_name(const std::string& key, const std::string& name, swarm::Topology& out) {
    const auto t = parse_topology(name);
    if (!t) bad(key, "must be ring or global");
    out = *t;
}
void parse_name(const std::string& key, const std::string& name, swarm::Strategy& out) {
    const auto s = swarm::parse_strategy(name);
    if (!s) bad(key, "'" + printable(name) + "' is not an engine strategy (see swarmtrack bench --help)");
    out = *s;
}
void parse_name(const std::string& key, const std::string& name, swarm::Backend& out) {
    const auto b = swarm::parse_backend(name);
    if (!b) bad(key, "must be cpu, cuda or auto");
    out = *b;
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
    if constexpr (std::is_enum_v<T>) {
        parse_name(key, v.get<std::string>(), out);
    } else {
        out = v.get<T>();
    }
}

template <typename T>
json written(const T& value) {
    if constexpr (std::is_enum_v<T>) {
        return std::string(name_of(value));
    } else {
        return value;
    }
}

} // namespace

std::string_view to_string(swarm::Topology t) { return t == swarm::Topology::Ring ? "ring" : "global"; }

std::optional<swarm::Topology> parse_topology(std::string_view name) {
    if (name == "ring") return swarm::Topology::Ring;
    if (name == "global") return swarm::Topology::Global;
    return std::nullopt;
}

void TrackerSettings::validate() const {
    range("particles", search.particles, 2, 4096);
    range("generations", search.generations, 1, 10000);
    range("detection_swarms_per_category", search.detection_swarms_per_category, 0, 64);
    range("detection_columns", search.detection_columns, 0, 16); // 0: auto
    range("detection_rows", search.detection_rows, 0, 16);
    range("candidate_regions", search.candidate_regions, 0, 2000); // 0: no candidate pass
    range("candidate_swarms", search.candidate_swarms, 0, 1024);   // 0: auto
    range("verified_swarms", search.verified_swarms, 0, 1024);
    range("verified_search_share", search.verified_search_share, 0.01, 1.0);
    range("candidate_probe_generations", search.candidate_probe_generations, 1, 1000);
    range("detection_generations", search.detection_generations, 0, 10000); // 0: auto
    range("candidate_interval", search.candidate_interval, 0, 1000); // 0: auto
    range("w", search.w, -1.0, 1.5);
    range("c1", search.c1, 0.0, 5.0);
    range("c2", search.c2, 0.0, 5.0);
    const int team = engine.gpu_team_warps;
    if (team != 0 && team != 1 && team != 2 && team != 4) {
        bad("gpu_team_warps", "must be 0 (auto), 1, 2 or 4");
    }
    range("detect_threshold", fitness.detect_threshold, 0.0, 2.0);
    range("verified_threshold", fitness.verified_threshold, 0.0, 2.0);
    range("small_find_threshold", fitness.small_find_threshold, 0.0, 2.0);
    range("track_threshold", fitness.track_threshold, 0.0, 1.0);
    range("respread_fraction", tracking.respread_fraction, 0.0, 1.0);
    range("angle_respread_fraction", tracking.angle_respread_fraction, 0.0, 1.0);
    range("track_focus_share", tracking.track_focus_share, 0.0, 1.0);
    range("track_focus_scale", tracking.track_focus_scale, 0.01, 1.0);
    range("edge_gain", fitness.edge_gain, 0.05, 100.0);
    range("edge_crossing", fitness.edge_crossing, 0.0, 1.0);
    range("occluder_credit", fitness.occluder_credit, 0.0, 1.0);
    range("yellow_interior", fitness.yellow_interior, 0.0, 1.0);
    range("cover_hue", fitness.cover_hue, 1.0, 180.0);
    range("group_floor", fitness.group_floor, 0.0, 1.0);
    range("rim_floor", fitness.rim_floor, 0.0, 1.0);
    range("paint_blur", fitness.paint_blur, 0.0, 5.0);
    range("depth_filter_gain", tracking.depth_filter_gain, 0.05, 1.0);
    range("angle_memory", tracking.angle_memory, 0.0, 1.0);
    range("angle_prior_px", tracking.angle_prior_px, 0.0, 10000.0);
    range("confirm_frames", tracking.confirm_frames, 1, 100);
    range("max_missed", tracking.max_missed, 0, 1000);
    range("verifier_refusals", tracking.verifier_refusals, 0, 1000);
    range("duplicate_iou", tracking.duplicate_iou, 0.0, 1.0);
    range("z_min", frustum.z_min, 0.5, 1000.0);
    range("z_max", frustum.z_max, frustum.z_min + 0.1, 2000.0);
    range("x_min", frustum.x_min, -1000.0, 1000.0);
    range("x_max", frustum.x_max, frustum.x_min + 0.01, 1000.0);
    range("y_min", frustum.y_min, -1000.0, 1000.0);
    range("y_max", frustum.y_max, frustum.y_min + 0.01, 1000.0);
    range("yaw_range", frustum.yaw_range, 0.0, 89.0);
    range("pitch_range", frustum.pitch_range, 0.0, 89.0);
    range("roll_range", frustum.roll_range, 0.0, 180.0);
    range("min_sign_px", frustum.min_sign_px, 0.0, 1000.0);
    range("horizontal_fov_deg", camera.horizontal_fov_deg, 1.0, 179.0);
    if (signs.categories.empty()) {
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
                s.signs.categories.clear();
                for (const auto& c : value) {
                    auto cat = c.is_string() ? parse_category(c.get<std::string>()) : std::nullopt;
                    if (!cat) {
                        bad(key, "entries must be prohibitory, danger, mandatory, give-way or stop");
                    }
                    s.signs.categories.push_back(*cat);
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
    for_each_field(copy, [&](const char* name, auto& field) { doc[name] = written(field); });
    doc["categories"] = json::array();
    for (Category c : signs.categories) {
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
