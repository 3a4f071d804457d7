#include "core/overlay_geometry.h"

#include "core/palette.h"

namespace app {
namespace {

OverlayVertex vertex(float x, float y, Rgb c) { return {x, y, c.r / 255.0f, c.g / 255.0f, c.b / 255.0f}; }

} // namespace

void build_overlay(const tracker::FrameResult& result, const tracker::Camera& camera, const OverlayOptions& options,
                   OverlayGeometry& out) {
    out.clear();
    if (options.particles) {
        for (const auto& s : result.swarms) {
            const Rgb c = swarm_colour(s.swarm);
            for (const auto& p : s.particles) out.points.push_back(vertex(p.x, p.y, c));
        }
    }
    if (options.best_pose) {
        constexpr float k_arm = 7.0f; // half-size of the best-pose cross, pixels
        for (const auto& s : result.swarms) {
            cv::Point2f c;
            if (!project_centre(camera, s.best, c)) continue;
            const Rgb col = swarm_colour(s.swarm);
            out.lines.push_back(vertex(c.x - k_arm, c.y, col));
            out.lines.push_back(vertex(c.x + k_arm, c.y, col));
            out.lines.push_back(vertex(c.x, c.y - k_arm, col));
            out.lines.push_back(vertex(c.x, c.y + k_arm, col));
        }
    }
    for (const auto& d : result.detections) {
        if (options.outlines && d.outline.size() >= 2) {
            for (std::size_t i = 0; i < d.outline.size(); ++i) {
                const auto& a = d.outline[i];
                const auto& b = d.outline[(i + 1) % d.outline.size()];
                out.lines.push_back(vertex(a.x, a.y, k_outline_colour));
                out.lines.push_back(vertex(b.x, b.y, k_outline_colour));
            }
        }
        if (options.labels) out.labels.push_back({d.box.x, d.box.y - 16.0f, detection_label(d)});
    }
}

} // namespace app
