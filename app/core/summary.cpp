#include "core/summary.h"

namespace app {

void RunStats::add(const tracker::FrameResult& result, const FrameTiming& timing) {
    ++m_frames;
    for (const auto& d : result.detections) {
        ++m_detections;
        ++m_per_category[std::string(tracker::to_string(d.category))];
        if (d.track_id >= 0) m_tracks.insert(d.track_id);
    }
    m_timings.push_back(timing);
}

nlohmann::json RunStats::json() const {
    nlohmann::json per_category = nlohmann::json::object();
    for (int c = 0; c < tracker::k_category_count; ++c) {
        const std::string name(tracker::to_string(static_cast<tracker::Category>(c)));
        const auto it = m_per_category.find(name);
        per_category[name] = it == m_per_category.end() ? 0 : it->second;
    }
    auto stats = [](const std::vector<double>& v) {
        return nlohmann::json{{"median", percentile(v, 50)}, {"p95", percentile(v, 95)}};
    };
    nlohmann::json stages = nlohmann::json::object();
    for (std::size_t s = 0; s < k_stage_count; ++s) {
        if (static_cast<Stage>(s) == Stage::Render) continue; // process reports annotate and encode instead
        std::vector<double> v;
        v.reserve(m_timings.size());
        for (const auto& t : m_timings) v.push_back(t.ms[s]);
        stages[std::string(to_string(static_cast<Stage>(s)))] = stats(v);
    }
    for (const auto& [name, v] : m_extra) stages[name] = stats(v);
    std::vector<double> frame;
    frame.reserve(m_timings.size());
    for (const auto& t : m_timings) frame.push_back(t.frame_ms);
    stages["frame"] = stats(frame);
    return {{"frames", m_frames},
            {"detections", {{"total", m_detections}, {"per_category", per_category}}},
            {"tracks", m_tracks.size()},
            {"stages_ms", stages}};
}

} // namespace app
