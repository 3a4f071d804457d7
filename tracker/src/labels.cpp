#include "tracker/labels.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "tracker/sign_classes.h"

namespace tracker {
namespace {

std::string lower_alnum(std::string_view s) {
    std::string out;
    for (const char c : s) {
        if (std::isalnum(static_cast<unsigned char>(c))) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    return out;
}

std::string extension_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    return lower_alnum(path.substr(dot + 1));
}

void finish(LabelSet& set) {
    for (const auto& l : set.labels) set.images.push_back(l.image);
    std::sort(set.images.begin(), set.images.end());
    set.images.erase(std::unique(set.images.begin(), set.images.end()), set.images.end());
}

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

// The whole field as an integer, or nullopt.
std::optional<int> integer_of(const std::string& field) {
    std::size_t used = 0;
    int value = 0;
    try {
        value = std::stoi(field, &used);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return used == field.size() ? std::optional<int>(value) : std::nullopt;
}

// A GTSDB line's category, from its class id (`field`, read as `id`) and the class list (as classes.json spells it).
std::string category_of_class(const std::vector<SignClass>& classes, const std::string& field, std::optional<int> id,
                              const std::string& where) {
    if (!id) {
        throw std::runtime_error(where + "field 'class_id': '" + field +
                                 "' is not an integer (a line of 6 fields takes its category from the class id)");
    }
    for (const SignClass& c : classes) {
        if (c.id == *id) return c.category_name;
    }
    throw std::runtime_error(where + "class_id " + field +
                             " is not in the sign class list (assets/classes/classes.json); give the category as a "
                             "7th field");
}

// A label's edge in pixels: finite, and small enough that sizes and overlaps computed in float stay finite.
bool is_pixel_coordinate(double v) { return std::isfinite(v) && std::abs(v) <= 1e6; }

} // namespace

std::string image_key(std::string_view file) {
    const auto slash = file.find_last_of("/\\");
    if (slash != std::string_view::npos) file.remove_prefix(slash + 1);
    const auto dot = file.find_last_of('.');
    if (dot != std::string_view::npos && dot > 0) file = file.substr(0, dot);
    return std::string(file);
}

std::optional<Category> parse_category_loose(std::string_view name) {
    const std::string key = lower_alnum(name);
    for (int i = 0; i < k_category_count; ++i) {
        const auto c = static_cast<Category>(i);
        if (lower_alnum(to_string(c)) == key) return c;
    }
    // The names other label sets and their tools give the same kinds of sign (COCO's own "stop sign", the US and
    // Vienna Convention's "warning" and "yield").
    static const std::pair<const char*, Category> k_synonyms[] = {{"warning", Category::Danger},
                                                                  {"yield", Category::GiveWay},
                                                                  {"stopsign", Category::Stop},
                                                                  {"prohibition", Category::Prohibitory}};
    for (const auto& [synonym, c] : k_synonyms) {
        if (key == synonym) return c;
    }
    return std::nullopt;
}

LabelSet read_labels_csv(const std::string& path, const std::vector<SignClass>* classes) {
    std::vector<SignClass> shipped; // GTSDB's class list, read at the first line without a category
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open for reading (" + std::strerror(errno) + "); check the path");
    LabelSet set;
    std::string text;
    long long n = 0;
    while (std::getline(in, text)) {
        ++n;
        const std::string line = trim(text);
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> f;
        std::stringstream ss(line);
        for (std::string cell; std::getline(ss, cell, ';');) f.push_back(trim(cell));
        if (!line.empty() && line.back() == ';') f.emplace_back();
        const std::string where = path + ":" + std::to_string(n) + ": ";
        if (n == 1 && !f.empty() && lower_alnum(f[0]) == "file") continue; // a header line
        if (f.size() != 7 && f.size() != 6) {
            throw std::runtime_error(where +
                                     "expected 7 fields file;left;top;right;bottom;class_id;category (or "
                                     "GTSDB's 6, without the category), got " +
                                     std::to_string(f.size()));
        }
        static const char* k_names[] = {"left", "top", "right", "bottom"};
        double v[4];
        for (int i = 0; i < 4; ++i) {
            std::size_t used = 0;
            try {
                v[i] = std::stod(f[static_cast<std::size_t>(i) + 1], &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != f[static_cast<std::size_t>(i) + 1].size() || !is_pixel_coordinate(v[i])) {
                throw std::runtime_error(where + "field '" + k_names[i] + "': '" + f[static_cast<std::size_t>(i) + 1] +
                                         "' is not a pixel coordinate (a number within +-1,000,000)");
            }
        }
        if (f[0].empty()) throw std::runtime_error(where + "field 'file': empty");
        if (v[2] < v[0] || v[3] < v[1]) {
            throw std::runtime_error(where + "right/bottom lie left of / above left/top (right and bottom are inclusive)");
        }
        const std::optional<int> class_id = integer_of(f[5]);
        if (f.size() == 6) {
            if (classes == nullptr) {
                if (shipped.empty()) shipped = SignClassifier::load_class_list(default_classes_dir() + "/classes.json");
                classes = &shipped;
            }
            f.push_back(category_of_class(*classes, f[5], class_id, where));
        }
        if (f[6].empty()) throw std::runtime_error(where + "field 'category': empty");
        BoxLabel l;
        l.image = image_key(f[0]);
        // Inclusive right/bottom edges: a sign from column 10 to 12 is 3 px wide.
        l.box = cv::Rect2f(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2] - v[0] + 1),
                           static_cast<float>(v[3] - v[1] + 1));
        l.category = parse_category_loose(f[6]);
        l.name = f[6];
        l.class_id = class_id && *class_id >= 0 ? *class_id : -1;
        set.labels.push_back(std::move(l));
    }
    finish(set);
    return set;
}

LabelSet read_labels_coco(const std::string& path) {
    using json = nlohmann::json;
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open for reading (" + std::strerror(errno) + "); check the path");
    json doc;
    try {
        doc = json::parse(in);
    } catch (const json::exception& e) {
        throw std::runtime_error(path + ": not valid JSON (" + e.what() + ")");
    }
    auto fail = [&](const std::string& where, const std::string& field, const std::string& why) {
        throw std::runtime_error(path + ": " + where + ": field '" + field + "': " + why);
    };
    if (!doc.is_object()) throw std::runtime_error(path + ": a COCO file is one JSON object with images, annotations, categories");
    for (const char* key : {"images", "annotations", "categories"}) {
        if (!doc.contains(key) || !doc[key].is_array()) fail("top level", key, "missing or not an array");
    }
    auto id_of = [&](const json& o, const std::string& where, const char* key) {
        if (!o.is_object()) fail(where, key, "the entry is not an object");
        auto it = o.find(key);
        if (it == o.end()) fail(where, key, "missing");
        if (!it->is_number_integer()) fail(where, key, "must be an integer");
        return it->get<long long>();
    };
    std::map<long long, std::string> file_of, name_of;
    LabelSet set;
    for (std::size_t i = 0; i < doc["images"].size(); ++i) {
        const json& im = doc["images"][i];
        const std::string where = "images[" + std::to_string(i) + "]";
        const long long id = id_of(im, where, "id");
        if (!im.contains("file_name") || !im["file_name"].is_string()) fail(where, "file_name", "missing or not a string");
        file_of[id] = image_key(im["file_name"].get<std::string>());
        set.images.push_back(file_of[id]);
    }
    for (std::size_t i = 0; i < doc["categories"].size(); ++i) {
        const json& c = doc["categories"][i];
        const std::string where = "categories[" + std::to_string(i) + "]";
        const long long id = id_of(c, where, "id");
        if (!c.contains("name") || !c["name"].is_string()) fail(where, "name", "missing or not a string");
        name_of[id] = c["name"].get<std::string>();
    }
    for (std::size_t i = 0; i < doc["annotations"].size(); ++i) {
        const json& a = doc["annotations"][i];
        const std::string where = "annotations[" + std::to_string(i) + "]";
        const long long image = id_of(a, where, "image_id");
        const long long cat = id_of(a, where, "category_id");
        if (!file_of.count(image)) fail(where, "image_id", std::to_string(image) + " is not in images");
        if (!name_of.count(cat)) fail(where, "category_id", std::to_string(cat) + " is not in categories");
        const auto b = a.find("bbox");
        if (b == a.end() || !b->is_array() || b->size() != 4 ||
            !std::all_of(b->begin(), b->end(), [](const json& x) { return x.is_number(); })) {
            fail(where, "bbox", "must be [x, y, width, height]");
        }
        if (!std::all_of(b->begin(), b->end(), [](const json& x) { return is_pixel_coordinate(x.get<double>()); })) {
            fail(where, "bbox", "numbers must lie within +-1,000,000 px");
        }
        const float w = (*b)[2].get<float>(), h = (*b)[3].get<float>();
        if (!(w > 0.f) || !(h > 0.f)) fail(where, "bbox", "width and height must be positive");
        BoxLabel l;
        l.image = file_of[image];
        l.box = cv::Rect2f((*b)[0].get<float>(), (*b)[1].get<float>(), w, h);
        l.category = parse_category_loose(name_of[cat]);
        l.name = name_of[cat];
        set.labels.push_back(std::move(l));
    }
    finish(set);
    return set;
}

cv::Rect2f in_image_coordinates(const cv::Rect2f& label_box) {
    return label_box - cv::Point2f(0.5f, 0.5f);
}

LabelSet read_labels(const std::string& path) {
    const std::string ext = extension_of(path);
    if (ext == "csv" || ext == "txt") return read_labels_csv(path);
    if (ext == "json") return read_labels_coco(path);
    throw std::runtime_error(path +
                             ": unknown label format; give a .csv (file;left;top;right;bottom;class_id;category), "
                             "GTSDB's gt.txt or a COCO .json");
}

} // namespace tracker
