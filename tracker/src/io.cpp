#include "tracker/io.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "tracker/atomic_write.h"
#include "printable_text.h"

namespace tracker {
namespace {

using nlohmann::json;

json pose_json(const Pose& p) {
    return {{"x", p.x}, {"y", p.y}, {"z", p.z}, {"yaw", p.yaw}, {"pitch", p.pitch}, {"roll", p.roll}};
}
json box_json(const cv::Rect2f& b) { return json::array({b.x, b.y, b.width, b.height}); }

// Field access that names the field when it is missing or has the wrong type.
struct LineReader {
    const std::string& file;
    long long line;
    [[noreturn]] void fail(const std::string& field, const std::string& why) const {
        throw std::runtime_error(file + ":" + std::to_string(line) + ": field '" + field + "': " + why);
    }
    const json& need(const json& o, const char* key) const {
        auto it = o.find(key);
        if (it == o.end()) {
            fail(key, "missing");
        }
        return *it;
    }
    double number(const json& o, const char* key) const {
        const json& v = need(o, key);
        if (!v.is_number()) {
            fail(key, "must be a number");
        }
        return v.get<double>();
    }
    long long integer(const json& o, const char* key) const {
        const json& v = need(o, key);
        if (!v.is_number_integer()) {
            fail(key, "must be an integer");
        }
        return v.get<long long>();
    }
    Category category(const json& o) const {
        const json& v = need(o, "category");
        auto c = v.is_string() ? parse_category(v.get<std::string>()) : std::nullopt;
        if (!c) {
            fail("category", "must be one of prohibitory, danger, mandatory, give-way, stop");
        }
        return *c;
    }
    Pose pose(const json& o) const {
        const json& p = need(o, "pose");
        if (!p.is_object()) {
            fail("pose", "must be an object with x, y, z, yaw, pitch, roll");
        }
        Pose r;
        r.x = number(p, "x");
        r.y = number(p, "y");
        r.z = number(p, "z");
        r.yaw = p.contains("yaw") ? number(p, "yaw") : 0.0;
        r.pitch = p.contains("pitch") ? number(p, "pitch") : 0.0;
        r.roll = p.contains("roll") ? number(p, "roll") : 0.0;
        return r;
    }
    cv::Rect2f box(const json& o) const {
        const json& b = need(o, "box");
        if (!b.is_array() || b.size() != 4 || !b[0].is_number() || !b[1].is_number() || !b[2].is_number() ||
            !b[3].is_number()) {
            fail("box", "must be [x, y, width, height]");
        }
        return {b[0].get<float>(), b[1].get<float>(), b[2].get<float>(), b[3].get<float>()};
    }
    FrameRecord frame_record(const json& o) const {
        FrameRecord f;
        f.frame = integer(o, "frame");
        f.width = o.contains("width") ? static_cast<int>(integer(o, "width")) : 0;
        f.height = o.contains("height") ? static_cast<int>(integer(o, "height")) : 0;
        f.detections = o.contains("detections") ? static_cast<int>(integer(o, "detections")) : 0;
        if (o.contains("file")) {
            if (!o["file"].is_string()) {
                fail("file", "must be a string");
            }
            f.file = o["file"].get<std::string>();
        }
        if (o.contains("timing")) {
            const json& t = o["timing"];
            if (!t.is_object()) {
                fail("timing", "must be an object");
            }
            f.has_timing = true;
            f.timing.upload_ms = number(t, "upload_ms");
            f.timing.preprocess_ms = number(t, "preprocess_ms");
            f.timing.search_ms = number(t, "search_ms");
            f.timing.readback_ms = number(t, "readback_ms");
            f.timing.total_ms = number(t, "total_ms");
            if (t.contains("candidates_ms")) { // written since the candidate detection; older files lack it
                f.timing.candidates_ms = number(t, "candidates_ms");
            }
            if (t.contains("classify_ms")) { // written since sign classes
                f.timing.classify_ms = number(t, "classify_ms");
                f.timing.classify_gpu_ms = t.contains("classify_gpu_ms") ? number(t, "classify_gpu_ms") : 0.0;
            }
        }
        return f;
    }
};

// Calls `on_line(reader, object, type)` for every non-empty line.
template <typename F>
void for_each_line(const std::string& path, F&& on_line) {
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error(path + ": cannot open for reading (" + std::strerror(errno) + "); check the path");
    }
    std::string text;
    long long n = 0;
    while (std::getline(in, text)) {
        ++n;
        if (text.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        LineReader r{path, n};
        json o;
        try {
            o = json::parse(text);
        } catch (const json::exception& e) { // parse_error, and out_of_range for numbers too large (found by fuzzing)
            throw std::runtime_error(path + ":" + std::to_string(n) + ": not valid JSON (" + e.what() + ")");
        }
        if (!o.is_object()) {
            r.fail("type", "each line must be a JSON object");
        }
        const json& type = r.need(o, "type");
        if (!type.is_string()) {
            r.fail("type", "must be a string");
        }
        on_line(r, o, type.get<std::string>());
    }
}

} // namespace

std::string to_json_line(const Detection& d) {
    json outline = json::array();
    for (const auto& p : d.outline) {
        outline.push_back({p.x, p.y});
    }
    json o = {{"type", "detection"}, {"frame", d.frame},          {"track_id", d.track_id},
              {"category", std::string(to_string(d.category))}, {"pose", pose_json(d.pose)},
              {"fitness", d.fitness},    {"box", box_json(d.box)}, {"outline", outline},
              {"class_id", d.class_id}, {"class_name", d.class_name}, {"class_confidence", d.class_confidence}};
    return o.dump();
}

std::string to_json_line(const GroundTruth& g) {
    json o = {{"type", "truth"}, {"frame", g.frame}, {"id", g.id}, {"category", std::string(to_string(g.category))},
              {"pose", pose_json(g.pose)}, {"box", box_json(g.box)}, {"visible", g.visible}};
    return o.dump();
}

std::string to_json_line(const FrameRecord& f) {
    json o = {{"type", "frame"}, {"frame", f.frame}, {"detections", f.detections}};
    if (f.width > 0 && f.height > 0) {
        o["width"] = f.width;
        o["height"] = f.height;
    }
    if (!f.file.empty()) {
        o["file"] = f.file;
    }
    if (f.has_timing) {
        o["timing"] = {{"upload_ms", f.timing.upload_ms},     {"preprocess_ms", f.timing.preprocess_ms},
                       {"search_ms", f.timing.search_ms},     {"readback_ms", f.timing.readback_ms},
                       {"candidates_ms", f.timing.candidates_ms}, {"classify_ms", f.timing.classify_ms},
                       {"classify_gpu_ms", f.timing.classify_gpu_ms}, {"total_ms", f.timing.total_ms}};
    }
    return o.dump();
}

PredictionFile read_predictions(const std::string& path) {
    PredictionFile out;
    for_each_line(path, [&](const LineReader& r, const json& o, const std::string& type) {
        if (type == "frame") {
            FrameRecord f = r.frame_record(o);
            out.frames[f.frame] = f;
        } else if (type == "detection") {
            Detection d;
            d.frame = r.integer(o, "frame");
            d.track_id = o.contains("track_id") ? static_cast<int>(r.integer(o, "track_id")) : -1;
            d.category = r.category(o);
            d.pose = r.pose(o);
            d.fitness = o.contains("fitness") ? r.number(o, "fitness") : 0.0;
            d.box = r.box(o);
            // Sign classes: written since they exist; older files (and class-less runs) read as unknown.
            if (o.contains("class_id")) {
                d.class_id = static_cast<int>(r.integer(o, "class_id"));
                if (d.class_id < -1) {
                    r.fail("class_id", "must be -1 (unknown) or a class id >= 0");
                }
            }
            if (o.contains("class_name")) {
                if (!o["class_name"].is_string()) {
                    r.fail("class_name", "must be a string");
                }
                d.class_name = o["class_name"].get<std::string>();
            }
            d.class_confidence = o.contains("class_confidence") ? r.number(o, "class_confidence") : 0.0;
            if (o.contains("outline")) {
                const json& ol = o["outline"];
                if (!ol.is_array()) {
                    r.fail("outline", "must be an array of [u, v] points");
                }
                for (const auto& p : ol) {
                    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) {
                        r.fail("outline", "must be an array of [u, v] points");
                    }
                    d.outline.emplace_back(p[0].get<float>(), p[1].get<float>());
                }
            }
            out.detections.push_back(std::move(d));
        } else {
            r.fail("type", "'" + printable(type) + "' is not a prediction line (expected frame or detection)");
        }
    });
    return out;
}

TruthFile read_truth(const std::string& path) {
    TruthFile out;
    for_each_line(path, [&](const LineReader& r, const json& o, const std::string& type) {
        if (type == "frame") {
            FrameRecord f = r.frame_record(o);
            out.frames[f.frame] = f;
        } else if (type == "truth") {
            GroundTruth g;
            g.frame = r.integer(o, "frame");
            g.id = static_cast<int>(r.integer(o, "id"));
            g.category = r.category(o);
            g.pose = r.pose(o);
            g.box = r.box(o);
            g.visible = o.contains("visible") ? r.number(o, "visible") : 1.0;
            out.truth.push_back(g);
        } else {
            r.fail("type", "'" + printable(type) + "' is not a ground-truth line (expected frame or truth)");
        }
    });
    return out;
}

AtomicTextWriter::AtomicTextWriter(std::string path) : m_path(std::move(path)), m_temp(temp_path_for(m_path)) {
    m_file = std::fopen(m_temp.c_str(), "w");
    if (!m_file) {
        throw std::runtime_error(m_path + ": cannot write (" + std::strerror(errno) +
                                 "); check that the folder exists and is writable");
    }
}

AtomicTextWriter::~AtomicTextWriter() {
    if (m_file) {
        std::fclose(m_file);
    }
    if (!m_committed) {
        std::remove(m_temp.c_str());
    }
}

void AtomicTextWriter::write_line(const std::string& line) {
    if (!m_file || std::fputs(line.c_str(), m_file) < 0 || std::fputc('\n', m_file) == EOF) {
        throw std::runtime_error(m_path + ": write failed (" + std::strerror(errno) + ")");
    }
}

void AtomicTextWriter::commit() {
    if (!m_file) {
        throw std::runtime_error(m_path + ": already committed");
    }
    const bool flushed = std::fclose(m_file) == 0;
    m_file = nullptr;
    if (!flushed || std::rename(m_temp.c_str(), m_path.c_str()) != 0) {
        throw std::runtime_error(m_path + ": cannot finish writing (" + std::strerror(errno) + ")");
    }
    m_committed = true;
}

} // namespace tracker
