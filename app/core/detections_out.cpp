#include "core/detections_out.h"

#include <string>

#include "tracker/io.h"

namespace app {

void write_jsonl(std::ostream& out, const tracker::FrameResult& result, cv::Size frame_size, const std::string& image) {
    // The tracker's own line format (tracker/io.h), so `swarmtrack eval` reads process output directly.
    tracker::FrameRecord record;
    record.frame = result.frame;
    record.width = frame_size.width;
    record.height = frame_size.height;
    record.detections = static_cast<int>(result.detections.size());
    record.timing = result.timing;
    record.has_timing = true;
    record.file = image;
    out << tracker::to_json_line(record) << '\n';
    for (const auto& d : result.detections) out << tracker::to_json_line(d) << '\n';
}

void write_mot(std::ostream& out, const tracker::FrameResult& result) {
    for (const auto& d : result.detections) {
        // MOT's world-coordinate columns carry the pose's camera-frame position in metres; the extra last column is
        // the sign's class id (-1 unknown; tracker/sign_classes.h).
        out << result.frame + 1 << ',' << d.track_id << ',' << d.box.x << ',' << d.box.y << ',' << d.box.width << ','
            << d.box.height << ',' << d.fitness << ',' << d.pose.x << ',' << d.pose.y << ',' << d.pose.z << ','
            << d.class_id << '\n';
    }
}

} // namespace app
