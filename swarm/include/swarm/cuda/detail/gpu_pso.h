#pragma once
// Common frame of every GPU PSO strategy: validation, upload of the bounds, event timing, the stopping
// rules, and the Result. A strategy only implements `solve`, which must leave each swarm's best fitness
// (minimise form) and position in ctx.best_f / ctx.best_x and set ctx.iterations.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "swarm/cuda/detail/device_problem.h"
#include "swarm/cuda/memory.h"
#include "swarm/cuda/stream.h"
#include "swarm/detail/stopping.h"
#include "swarm/optimizer.h"

namespace swarm::gpu {

template <typename Real>
struct RunContext {
    const Problem& problem;
    const Params& params;
    cudaStream_t stream;
    DeviceProblem<Real> dp;           // kernel view of bounds, coefficients, seed
    GPUMemory<Real>& best_f;          // out: swarms
    GPUMemory<Real>& best_x;          // out: swarms x dims
    std::vector<std::vector<double>>& history; // out (if params.record_history): per swarm, per iteration
    long long iterations = 0;         // out: iterations actually run
    detail::StopRule stop;

    // Host-loop strategies call this after each iteration with the device array of per-swarm best
    // fitness (minimise form). Only when early stopping or history is on does it copy anything back.
    // Returns true when the run must stop.
    bool after_iteration(long long t, const Real* device_swarm_best);
    // Whether anything looks at the run between iterations (history or early stopping): then it runs in
    // steps the host can see, otherwise a strategy may run it whole (one launch, a graph).
    bool watched() const { return params.record_history || stop.early_stopping(); }

    // Scores `rows` particle rows at `x` into `f` (minimise form) with the problem's batched evaluator
    // on the device, when the problem has one (fp32 only).
    void evaluate_batch(const Real* x, Real* f);
    bool has_evaluator() const { return static_cast<bool>(problem.evaluator); }
};

class GpuPsoOptimizer : public Optimizer {
public:
    explicit GpuPsoOptimizer(Strategy s) : m_strategy(s) {}
    Strategy strategy() const final { return m_strategy; }
    Result run(const Problem& problem, const Params& params) final;
    // Runs on the caller's stream from now on, after the work the caller queued there (a frame's
    // preprocessing); null (the default) gives each run a stream of its own.
    void set_stream(cudaStream_t stream) { m_stream = stream; }
    cudaStream_t stream() const { return m_stream; }

protected:
    virtual void solve(RunContext<float>& ctx) = 0;
    virtual void solve(RunContext<double>& ctx) = 0;
    // Strategies that keep state between runs (cached device memory) own it as members.

private:
    template <typename Real>
    Result run_typed(const Problem& problem, const Params& params);

    Strategy m_strategy;
    cudaStream_t m_stream = nullptr;
};

// Fills a DeviceProblem's scalar fields and uploads bounds (expanded to swarms x dims) into the buffers.
template <typename Real>
// A start box (Problem::init_lower) goes into init_lower/init_upper; without one they stay empty and the
// DeviceProblem's start box points at the bounds.
DeviceProblem<Real> upload_problem(const Problem& problem, const Params& params, GPUMemory<Real>& lower,
                                   GPUMemory<Real>& upper, GPUMemory<Real>& vmax, GPUMemory<Real>& init_lower,
                                   GPUMemory<Real>& init_upper, cudaStream_t stream);

} // namespace swarm::gpu
