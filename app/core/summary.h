#pragma once
// Whole-run statistics for the process command's summary.json: frames, detections per category,
// distinct tracks, and per-stage median / p95 times.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/timing.h"
#include "tracker/types.h"

namespace app {

class RunStats {
public:
    void add(const tracker::FrameResult& result, const FrameTiming& timing);
    void add_stage(const std::string& stage, double ms) { m_extra[stage].push_back(ms); }
    long long frames() const { return m_frames; }
    long long detections() const { return m_detections; }
    // {"frames", "detections": {"total", per category…}, "tracks", "stages_ms": {stage: {"median","p95"}}}
    nlohmann::json json() const;

private:
    long long m_frames = 0;
    long long m_detections = 0;
    std::map<std::string, long long> m_per_category;
    std::set<int> m_tracks;
    std::vector<FrameTiming> m_timings;
    std::map<std::string, std::vector<double>> m_extra; // stages only the caller knows (annotate, encode)
};

} // namespace app
