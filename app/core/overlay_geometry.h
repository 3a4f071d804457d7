#pragma once
// The overlay as plain geometry in image pixels: coloured points (particles), line segments (detection
// outlines, best-pose crosses) and text labels. Built without any GL so it can be tested; the GL
// renderer only uploads the vertex arrays (like cuda-samples' particles renderer gets a buffer).
#include <string>
#include <vector>

#include "core/annotate.h"
#include "tracker/camera.h"
#include "tracker/types.h"

namespace app {

struct OverlayVertex {
    float x, y;    // image pixels
    float r, g, b; // 0..1
};

struct OverlayLabel {
    float x, y; // image pixels, top-left of the text
    std::string text;
};

struct OverlayGeometry {
    std::vector<OverlayVertex> points; // GL_POINTS
    std::vector<OverlayVertex> lines;  // GL_LINES: pairs
    std::vector<OverlayLabel> labels;
    void clear() {
        points.clear();
        lines.clear();
        labels.clear();
    }
};

// Fills `out` (reusing its storage) from one frame's result.
void build_overlay(const tracker::FrameResult& result, const tracker::Camera& camera, const OverlayOptions& options,
                   OverlayGeometry& out);

} // namespace app
