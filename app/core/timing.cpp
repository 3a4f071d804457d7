#include "core/timing.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace app {

std::string_view to_string(Stage s) {
    static constexpr std::string_view k_names[] = {"capture",  "upload",     "preprocess", "search",
                                                   "readback", "candidates", "classes",    "render"};
    static_assert(std::size(k_names) == k_stage_count, "a name for every stage");
    return k_names[static_cast<std::size_t>(s)];
}

void FrameTiming::set_tracker(const tracker::StageTiming& t) {
    (*this)[Stage::Upload] = t.upload_ms;
    (*this)[Stage::Preprocess] = t.preprocess_ms;
    (*this)[Stage::Search] = t.search_ms;
    (*this)[Stage::Readback] = t.readback_ms;
    (*this)[Stage::Candidates] = t.candidates_ms;
    (*this)[Stage::Classes] = t.classify_ms;
}

void TimingHistory::push(const FrameTiming& t) {
    m_samples[m_head] = t;
    m_head = (m_head + 1) % m_samples.size();
    m_count = std::min(m_count + 1, m_samples.size());
}

const FrameTiming& TimingHistory::at(std::size_t i) const {
    const std::size_t oldest = (m_head + m_samples.size() - m_count) % m_samples.size();
    return m_samples[(oldest + i) % m_samples.size()];
}

double TimingHistory::fps() const {
    double total = 0;
    for (std::size_t i = 0; i < m_count; ++i) total += at(i).frame_ms;
    return total > 0 ? 1000.0 * static_cast<double>(m_count) / total : 0.0;
}

std::vector<float> TimingHistory::series(Stage s) const {
    std::vector<float> out(m_count);
    for (std::size_t i = 0; i < m_count; ++i) out[i] = static_cast<float>(at(i)[s]);
    return out;
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0.0;
    const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
    const std::size_t k = static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(values.size()))) - 1;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
    return values[k];
}

} // namespace app
