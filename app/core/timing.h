#pragma once
// Per-frame stage timing: a rolling window for the GUI plot and whole-run statistics (median, p95)
// for the process summary.
#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "tracker/types.h"

namespace app {

// Stages in pipeline order. `candidates`: the tracker's host work beside the GPU's (the candidate region search, on
// every frame or every candidate_interval-th, and the verifier); `classes`: the sign classes of the detections.
// `render` is the GUI's draw (or process's annotate + encode).
enum class Stage { Capture, Upload, Preprocess, Search, Readback, Candidates, Classes, Render, Count };
constexpr std::size_t k_stage_count = static_cast<std::size_t>(Stage::Count);
std::string_view to_string(Stage s);

struct FrameTiming {
    std::array<double, k_stage_count> ms{}; // indexed by Stage
    double frame_ms = 0;                    // wall time of the whole iteration (1000 / fps)
    double& operator[](Stage s) { return ms[static_cast<std::size_t>(s)]; }
    double operator[](Stage s) const { return ms[static_cast<std::size_t>(s)]; }
    void set_tracker(const tracker::StageTiming& t);
};

// The last `capacity` frames, oldest first when read through at().
class TimingHistory {
public:
    explicit TimingHistory(std::size_t capacity = 120) : m_samples(capacity) {}
    void push(const FrameTiming& t);
    std::size_t size() const { return m_count; }
    std::size_t capacity() const { return m_samples.size(); }
    const FrameTiming& at(std::size_t i) const; // 0 = oldest kept
    const FrameTiming& latest() const { return at(m_count - 1); }
    // Frames per second over the kept window, from the iterations' wall times.
    double fps() const;
    // One stage over the window, oldest first (what ImGui::PlotLines wants).
    std::vector<float> series(Stage s) const;
    void clear() { m_count = 0; m_head = 0; }

private:
    std::vector<FrameTiming> m_samples;
    std::size_t m_head = 0; // where the next sample goes
    std::size_t m_count = 0;
};

// Percentile of `values` (nearest rank, p in [0, 100]); 0 for an empty set.
double percentile(std::vector<double> values, double p);

} // namespace app
