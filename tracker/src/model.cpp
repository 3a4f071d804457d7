#include "tracker/model.h"
#include "tracker/assets.h"
#include "paint_reach.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace tracker {
namespace {

using nlohmann::json;
constexpr int k_edge_points = 40;

struct Reader {
    std::string file;
    [[noreturn]] void fail(const std::string& field, const std::string& why) const {
        throw std::runtime_error(file + ": field '" + field + "': " + why);
    }
    const json& need(const json& o, const std::string& key, const std::string& where) const {
        auto it = o.find(key);
        if (it == o.end()) {
            fail(where + key, "missing");
        }
        return *it;
    }
    std::vector<cv::Point3f> points(const json& a, const std::string& field, std::size_t min_count) const {
        if (!a.is_array() || a.size() < min_count) {
            fail(field, "must be an array of at least " + std::to_string(min_count) + " [x, y, z] points in metres");
        }
        std::vector<cv::Point3f> out;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const json& p = a[i];
            if (!p.is_array() || p.size() != 3 || !p[0].is_number() || !p[1].is_number() || !p[2].is_number()) {
                fail(field + "[" + std::to_string(i) + "]", "must be [x, y, z] numbers");
            }
            const cv::Point3f q(p[0].get<float>(), p[1].get<float>(), p[2].get<float>());
            if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z) || std::abs(q.x) > 5.f ||
                std::abs(q.y) > 5.f || std::abs(q.z) > 0.5f) {
                fail(field + "[" + std::to_string(i) + "]",
                     "coordinates must be finite metres within 5 m of the centre and |z| <= 0.5 (a planar sign)");
            }
            out.push_back(q);
        }
        return out;
    }
    ColourClass colour(const json& o, const std::string& where) const {
        const json& c = need(o, "colour", where);
        auto v = c.is_string() ? parse_colour(c.get<std::string>()) : std::nullopt;
        if (!v) {
            fail(where + "colour", "must be one of red, blue, white, yellow, other");
        }
        return *v;
    }
};

} // namespace

int SignModel::count(PointRole role) const {
    return static_cast<int>(std::count_if(points.begin(), points.end(), [&](const auto& p) { return p.role == role; }));
}

cv::Point2d SignModel::extent() const {
    float x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    for (const auto& p : outline) {
        x0 = std::min(x0, p.x);
        x1 = std::max(x1, p.x);
        y0 = std::min(y0, p.y);
        y1 = std::max(y1, p.y);
    }
    return {x1 - x0, y1 - y0};
}

double SignModel::size_m() const {
    const cv::Point2d e = extent();
    return std::sqrt(e.x * e.y);
}

std::vector<ModelPoint> edge_points(const std::vector<cv::Point3f>& outline, int per_model) {
    std::vector<double> lengths;
    double total = 0;
    double area2 = 0; // sign of the shoelace sum tells the winding, so normals point outwards either way
    for (std::size_t i = 0; i < outline.size(); ++i) {
        const auto& a = outline[i];
        const auto& b = outline[(i + 1) % outline.size()];
        lengths.push_back(cv::norm(b - a));
        total += lengths.back();
        area2 += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
    }
    const float sgn = area2 > 0 ? 1.f : -1.f;
    std::vector<ModelPoint> out;
    for (int k = 0; k < per_model; ++k) {
        double d = total * (k + 0.5) / per_model;
        for (std::size_t i = 0; i < outline.size(); ++i) {
            if (d <= lengths[i] || i + 1 == outline.size()) {
                const auto& a = outline[i];
                const auto& b = outline[(i + 1) % outline.size()];
                const float t = lengths[i] > 0 ? static_cast<float>(d / lengths[i]) : 0.f;
                const cv::Point3f e = (b - a) * (1.f / static_cast<float>(std::max(lengths[i], 1e-9)));
                ModelPoint p;
                p.position = a + (b - a) * t;
                p.role = PointRole::Edge;
                p.normal = cv::Point3f(e.y * sgn, -e.x * sgn, 0.f);
                out.push_back(p);
                break;
            }
            d -= lengths[i];
        }
    }
    return out;
}

SignModel load_sign_model(const std::string& path) {
    Reader r{path};
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error(path + ": cannot open the sign model; check the path or --models");
    }
    json doc;
    try {
        doc = json::parse(in);
    } catch (const json::exception& e) { // parse_error, and out_of_range for numbers too large (found by fuzzing)
        throw std::runtime_error(path + ": not valid JSON (" + e.what() + ")");
    }
    if (!doc.is_object()) {
        r.fail("(top level)", "must be an object");
    }
    const json& format = r.need(doc, "format", "");
    if (format != "swarmtrack-sign/1") {
        r.fail("format", "must be \"swarmtrack-sign/1\"");
    }
    SignModel m;
    m.source = path;
    const json& cat = r.need(doc, "category", "");
    auto c = cat.is_string() ? parse_category(cat.get<std::string>()) : std::nullopt;
    if (!c) {
        r.fail("category", "must be one of prohibitory, danger, mandatory, give-way, stop");
    }
    m.category = *c;
    if (doc.contains("description") && doc["description"].is_string()) {
        m.description = doc["description"].get<std::string>();
    }
    if (const auto variant = doc.find("variant"); variant != doc.end()) {
        if (!variant->is_string() || variant->get<std::string>().empty()) {
            r.fail("variant", "must be a non-empty name (a second model of its category, e.g. \"roundabout\")");
        }
        m.variant = variant->get<std::string>();
    }
    // An optional share of a setting, in [0, 1]; `of_what` names the setting in the error.
    const auto read_share = [&](const char* field, const char* of_what, float& share) {
        if (const auto value = doc.find(field); value != doc.end()) {
            if (!value->is_number() || !(value->get<double>() >= 0.0 && value->get<double>() <= 1.0)) {
                r.fail(field, std::string("must be a number from 0 to 1 (the ") + of_what + "'s share)");
            }
            share = value->get<float>();
        }
    };
    read_share("rim_floor_scale", "rim floor", m.rim_floor_scale);
    read_share("verified_threshold_scale", "verified threshold", m.verified_threshold_scale);
    if (const auto floor = doc.find("find_floor"); floor != doc.end()) {
        if (!floor->is_number() || !(floor->get<double>() >= 0.0 && floor->get<double>() <= 1.0)) {
            r.fail("find_floor", "must be a number from 0 to 1 (the least fitness a find of this model needs)");
        }
        m.find_floor = floor->get<float>();
    }
    m.outline = r.points(r.need(doc, "outline", ""), "outline", 3);
    for (const auto& p : m.outline) {
        m.radius = std::max(m.radius, static_cast<float>(cv::norm(p)));
    }
    if (m.radius < 0.05f) {
        r.fail("outline", "sign is smaller than 0.1 m; sizes are in metres");
    }
    const json& layers = r.need(doc, "layers", "");
    if (!layers.is_array() || layers.empty()) {
        r.fail("layers", "must be a non-empty array of {colour, polygon}");
    }
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const std::string where = "layers[" + std::to_string(i) + "].";
        ModelLayer l;
        l.colour = r.colour(layers[i], where);
        l.polygon = r.points(r.need(layers[i], "polygon", where), where + "polygon", 3);
        m.layers.push_back(std::move(l));
    }
    const json& regions = r.need(doc, "regions", "");
    if (!regions.is_array()) {
        r.fail("regions", "must be an array of {role, colour, points}");
    }
    for (std::size_t i = 0; i < regions.size(); ++i) {
        const std::string where = "regions[" + std::to_string(i) + "].";
        const json& role = r.need(regions[i], "role", where);
        PointRole pr{};
        bool required = true;
        if (role == "rim") {
            pr = PointRole::Rim;
        } else if (role == "interior") {
            pr = PointRole::Interior;
        } else if (role == "outside") {
            pr = PointRole::Outside;
            required = false;
        } else if (role == "contrast") {
            pr = PointRole::Outside;
        } else {
            r.fail(where + "role", "must be rim, interior, outside or contrast");
        }
        const auto optional = regions[i].find("optional");
        if (optional != regions[i].end()) {
            if (!optional->is_boolean() || role == "outside") {
                r.fail(where + "optional", "must be true or false, on a rim, interior or contrast region");
            }
            required = !optional->get<bool>();
        }
        int part = 0;
        const auto part_field = regions[i].find("part");
        if (part_field != regions[i].end()) {
            if (!part_field->is_number_integer() || part_field->get<long long>() < 0 ||
                part_field->get<long long>() > 7 || role == "outside") {
                r.fail(where + "part", "must be an integer 0-7, on a rim, interior or contrast region");
            }
            part = part_field->get<int>();
        }
        const ColourClass colour = r.colour(regions[i], where);
        for (const auto& p : r.points(r.need(regions[i], "points", where), where + "points", 1)) {
            const PaintReach reach = paint_reach(m.layers, {p.x, p.y});
            m.points.push_back({p, colour, pr, {}, required, part, reach.near_m, reach.far_m});
        }
    }
    for (PointRole need : {PointRole::Rim, PointRole::Interior, PointRole::Outside}) {
        if (m.count(need) == 0) {
            r.fail("regions", std::string("needs at least one ") +
                                  (need == PointRole::Rim ? "rim" : need == PointRole::Interior ? "interior" : "outside") +
                                  " region");
        }
    }
    // The edge term follows the strongest designed contrast. That is the outline, unless the file names
    // another polygon: the stop sign's thin white border makes the red octagon's boundary the edge that
    // shows at a distance.
    const std::vector<cv::Point3f> edge =
        doc.contains("edge") ? r.points(doc["edge"], "edge", 3) : m.outline;
    for (auto& e : edge_points(edge, k_edge_points)) {
        m.points.push_back(e);
    }
    return m;
}

std::string default_models_dir() { return assets_dir() + "/signs"; }

const SignModel* base_model(const std::vector<SignModel>& models, Category category) {
    const auto it =
        std::find_if(models.begin(), models.end(), [&](const SignModel& m) { return m.category == category; });
    return it == models.end() ? nullptr : &*it;
}

std::vector<SignModel> load_sign_models(const std::string& dir_in, const std::vector<Category>& wanted) {
    const std::string dir = dir_in.empty() ? default_models_dir() : dir_in;
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        throw std::runtime_error(dir + ": sign model folder not found; pass models_dir or set SWARMTRACK_ASSETS");
    }
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().extension() == ".json") {
            files.push_back(e.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    std::vector<SignModel> models;
    for (const auto& f : files) {
        SignModel m = load_sign_model(f);
        for (const auto& other : models) {
            if (other.category == m.category && other.variant == m.variant) {
                throw std::runtime_error(f + ": field 'category': " + std::string(to_string(m.category)) +
                                         (m.variant.empty() ? "" : " variant " + m.variant) +
                                         " is already defined by " + other.source +
                                         "; give one of them another \"variant\" name");
            }
        }
        models.push_back(std::move(m));
    }
    // Each wanted category's base model, then its variants in file-name order: models[i] of a category's first
    // index is the one the renderer draws and the detection tiles search.
    std::vector<SignModel> out;
    for (Category c : wanted) {
        auto base = std::find_if(models.begin(), models.end(),
                                 [&](const auto& m) { return m.category == c && m.variant.empty(); });
        if (base == models.end()) {
            throw std::runtime_error(dir + ": no sign model for category " + std::string(to_string(c)));
        }
        out.push_back(*base);
        for (const auto& m : models) {
            if (m.category == c && !m.variant.empty()) {
                out.push_back(m);
            }
        }
    }
    return out;
}

} // namespace tracker
