#include "core/annotate.h"

#include <cstdio>
#include <string>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "core/palette.h"

namespace app {
namespace {

cv::Scalar bgr(Rgb c) { return {static_cast<double>(c.b), static_cast<double>(c.g), static_cast<double>(c.r)}; }

} // namespace

bool project_centre(const tracker::Camera& camera, const tracker::Pose& pose, cv::Point2f& out) {
    if (pose.z <= 1e-6) return false;
    out = {static_cast<float>(camera.fx * pose.x / pose.z + camera.cx),
           static_cast<float>(camera.fy * pose.y / pose.z + camera.cy)};
    return true;
}

std::string detection_label(const tracker::Detection& d, bool ascii) {
    std::string text(tracker::to_string(d.category));
    if (d.class_id >= 0) {
        text += ascii ? " - " : " \xc2\xb7 "; // UTF-8 middle dot; the video's Hershey font draws ASCII only
        text += d.class_name;
    }
    char buf[48];
    if (d.track_id >= 0) {
        std::snprintf(buf, sizeof buf, " #%d %.2f", d.track_id, d.fitness);
    } else {
        std::snprintf(buf, sizeof buf, " %.2f", d.fitness);
    }
    return text + buf;
}

void annotate(cv::Mat& image, const tracker::FrameResult& result, const tracker::Camera& camera,
              const OverlayOptions& options) {
    const int radius = std::max(1, static_cast<int>(options.point_size * 0.5f + 0.5f));
    if (options.particles) {
        for (const auto& s : result.swarms) {
            const cv::Scalar c = bgr(swarm_colour(s.swarm));
            for (const auto& p : s.particles) cv::circle(image, p, radius, c, cv::FILLED, cv::LINE_8);
        }
    }
    if (options.best_pose) {
        for (const auto& s : result.swarms) {
            cv::Point2f centre;
            if (!project_centre(camera, s.best, centre)) continue;
            cv::drawMarker(image, centre, bgr(swarm_colour(s.swarm)), cv::MARKER_CROSS, 14, 2);
        }
    }
    for (const auto& d : result.detections) {
        if (options.outlines && d.outline.size() >= 2) {
            std::vector<cv::Point> poly;
            poly.reserve(d.outline.size());
            for (const auto& p : d.outline) poly.emplace_back(cvRound(p.x), cvRound(p.y));
            cv::polylines(image, poly, true, bgr(k_outline_colour), 2, cv::LINE_AA);
        }
        if (options.labels) {
            const cv::Point at(cvRound(d.box.x), std::max(12, cvRound(d.box.y) - 4));
            const std::string text = detection_label(d, true);
            cv::putText(image, text, at, cv::FONT_HERSHEY_SIMPLEX, 0.45, cv::Scalar(0, 0, 0), 3, cv::LINE_AA);
            cv::putText(image, text, at, cv::FONT_HERSHEY_SIMPLEX, 0.45, bgr(k_label_colour), 1, cv::LINE_AA);
        }
    }
}

} // namespace app
