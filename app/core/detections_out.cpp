#include "core/detections_out.h"

#include <string>

#include <nlohmann/json.hpp>

namespace app {

void write_jsonl(std::ostream& out, const tracker::FrameResult& result) {
    for (const auto& d : result.detections) {
        nlohmann::json outline = nlohmann::json::array();
        for (const auto& p : d.outline) outline.push_back({p.x, p.y});
        const nlohmann::json j = {
            {"frame", result.frame},
            {"track_id", d.track_id},
            {"category", std::string(tracker::to_string(d.category))},
            {"fitness", d.fitness},
            {"pose", {{"x", d.pose.x}, {"y", d.pose.y}, {"z", d.pose.z}, {"yaw", d.pose.yaw}, {"pitch", d.pose.pitch},
                      {"roll", d.pose.roll}}},
            {"box", {d.box.x, d.box.y, d.box.width, d.box.height}},
            {"outline", outline},
        };
        out << j.dump() << '\n';
    }
}

void write_mot(std::ostream& out, const tracker::FrameResult& result) {
    for (const auto& d : result.detections) {
        // MOT's world-coordinate columns carry the pose's camera-frame position in metres.
        out << result.frame + 1 << ',' << d.track_id << ',' << d.box.x << ',' << d.box.y << ',' << d.box.width << ','
            << d.box.height << ',' << d.fitness << ',' << d.pose.x << ',' << d.pose.y << ',' << d.pose.z << '\n';
    }
}

} // namespace app
