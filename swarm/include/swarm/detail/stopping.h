#pragma once
// The stopping rules of Params (max iterations, target error, stall count), in one place so every
// strategy stops for the same reasons and reports them with the same words.
#include <cmath>
#include <optional>
#include <string>

#include "swarm/params.h"

namespace swarm::detail {

class StopRule {
public:
    StopRule(const Params& params, std::optional<double> known_optimum)
        : m_params(params), m_optimum(known_optimum) {}

    // Call once per finished iteration with the best fitness over all swarms (reported direction:
    // larger is better when maximising). Returns true when the run should stop now.
    bool after_iteration(long long iteration, double best, bool maximise) {
        const bool improved = !m_have || (maximise ? best > m_best : best < m_best);
        if (improved) {
            m_best = best;
            m_have = true;
            m_stall = 0;
        } else {
            ++m_stall;
        }
        if (m_optimum && !std::isnan(m_params.target_error) && std::fabs(best - *m_optimum) <= m_params.target_error) {
            m_reason = "target error";
            return true;
        }
        if (m_params.stall_iterations > 0 && m_stall >= m_params.stall_iterations) {
            m_reason = "stall";
            return true;
        }
        if (iteration >= m_params.iterations) {
            m_reason = "iterations";
            return true;
        }
        return false;
    }

    // Whether any early-stopping rule is active (strategies that run whole runs on the device need the
    // per-iteration check only then).
    bool early_stopping() const {
        return (m_optimum && !std::isnan(m_params.target_error)) || m_params.stall_iterations > 0;
    }

    const std::string& reason() const { return m_reason; }

private:
    const Params& m_params;
    std::optional<double> m_optimum;
    double m_best = 0.0;
    bool m_have = false;
    long long m_stall = 0;
    std::string m_reason = "iterations";
};

} // namespace swarm::detail
