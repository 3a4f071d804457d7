#pragma once
// Host-side fitness of a Problem in "minimise" form: maximised problems are negated here once, so every
// strategy compares with `<` and reports `sign * value` back.
#include <vector>

#include "swarm/benchmark_functions.h"
#include "swarm/errors.h"
#include "swarm/params.h"
#include "swarm/problem.h"

namespace swarm::detail {

template <typename Real>
class HostObjective {
public:
    HostObjective(const Problem& problem, int swarms, int particles)
        : m_problem(problem), m_shape{swarms, particles, problem.dims},
          m_sign(problem.goal == Goal::Maximise ? Real(-1) : Real(1)) {
        if (problem.evaluator) {
            if constexpr (sizeof(Real) != sizeof(float)) {
                throw ValidationError("precision", "a batched evaluator scores fp32 positions; use --precision fp32");
            }
            if (!problem.evaluator->supports(MemorySpace::Host)) {
                throw UnavailableError("the problem's batched evaluator has no host path; use a GPU strategy");
            }
        }
    }

    Real sign() const { return m_sign; }

    // Score one row of `dims` values (minimise form).
    Real operator()(const Real* x) const {
        const int d = m_problem.dims;
        if (m_problem.evaluator) {
            float fit = 0.0f;
            BatchShape one{1, 1, d};
            m_problem.evaluator->evaluate(reinterpret_cast<const float*>(x), &fit, one, MemorySpace::Host, nullptr);
            return m_sign * static_cast<Real>(fit);
        }
        if (m_problem.host_function) {
            if constexpr (sizeof(Real) == sizeof(double)) {
                return m_sign * static_cast<Real>(m_problem.host_function(x, d));
            } else {
                thread_local std::vector<double> tmp;
                tmp.assign(x, x + d);
                return m_sign * static_cast<Real>(m_problem.host_function(tmp.data(), d));
            }
        }
        return m_sign * fn::evaluate<Real>(m_problem.function, x, d);
    }

    // Score `rows` consecutive rows starting at row `first`; batched evaluators get one call.
    void score_rows(const Real* x, Real* out, std::size_t first, std::size_t rows) const {
        const int d = m_problem.dims;
        if (m_problem.evaluator && rows > 0) {
            thread_local std::vector<float> fit;
            fit.resize(rows);
            BatchShape shape = m_shape;
            if (rows != m_shape.rows()) {
                shape = BatchShape{1, static_cast<int>(rows), d};
            }
            m_problem.evaluator->evaluate(reinterpret_cast<const float*>(x + first * d), fit.data(), shape,
                                          MemorySpace::Host, nullptr);
            for (std::size_t i = 0; i < rows; ++i) {
                out[first + i] = m_sign * static_cast<Real>(fit[i]);
            }
            return;
        }
        for (std::size_t i = first; i < first + rows; ++i) {
            out[i] = (*this)(x + i * d);
        }
    }

    bool batched() const { return static_cast<bool>(m_problem.evaluator); }

private:
    const Problem& m_problem;
    BatchShape m_shape;
    Real m_sign;
};

} // namespace swarm::detail
