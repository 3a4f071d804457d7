#pragma once
// A GPU strategy is device buffers kept between runs (FastPSO's memory caching: a second run of the same shape
// allocates nothing), one set per precision, and one solve template for both precisions. GpuStrategy holds the
// two sets and turns GpuPsoOptimizer's fp32 and fp64 solve into calls of the derived class's
//   template <typename Real> void solve_impl(RunContext<Real>& ctx, Buffers<Real>& buf);
// which it reaches as a friend (`friend GpuStrategy;` in the derived class).
#include "swarm/cuda/detail/gpu_pso.h"

namespace swarm::gpu {

template <typename Derived, template <typename> class Buffers>
class GpuStrategy : public GpuPsoOptimizer {
protected:
    using GpuPsoOptimizer::GpuPsoOptimizer;

    void solve(RunContext<float>& ctx) final { static_cast<Derived&>(*this).solve_impl(ctx, m_f32); }
    void solve(RunContext<double>& ctx) final { static_cast<Derived&>(*this).solve_impl(ctx, m_f64); }

private:
    Buffers<float> m_f32;
    Buffers<double> m_f64;
};

} // namespace swarm::gpu
