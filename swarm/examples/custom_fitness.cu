// Custom fitness with swarm/cuda/custom.cuh: a functor inlined into gpu-fused's kernel, and the same
// functor on the host with cpu-serial for comparison. Build target: swarm_custom_example.
#include <cstdio>

#include "swarm/cuda/custom.cuh"

// Styblinski-Tang, minimum -39.16617 * dims at x_i = -2.903534.
struct StyblinskiTang {
    template <typename Real>
    __host__ __device__ Real operator()(const Real* x, int dims) const {
        Real s = 0;
        for (int i = 0; i < dims; ++i) {
            const Real v = x[i];
            s += v * v * v * v - Real(16) * v * v + Real(5) * v;
        }
        return s / Real(2);
    }
};

int main() {
    swarm::Problem problem;
    problem.dims = 8;
    problem.lower.assign(8, -5.0);
    problem.upper.assign(8, 5.0);
    problem.known_optimum = -39.16617 * 8;
    problem.host_function = swarm::cuda::host_function(StyblinskiTang{});

    swarm::Params params;
    params.swarms = 64;
    params.particles = 64;
    params.iterations = 2000;
    try {
        const swarm::Result gpu = swarm::cuda::optimize(problem, params, StyblinskiTang{});
        const swarm::Result cpu = swarm::optimize(problem, params, swarm::Strategy::CpuSerial);
        std::printf("gpu-fused  %s: best %.5f in %.2f ms\n", gpu.device.c_str(), gpu.best().best_fitness, gpu.wall_ms);
        std::printf("cpu-serial %s: best %.5f in %.2f ms\n", cpu.device.c_str(), cpu.best().best_fitness, cpu.wall_ms);
    } catch (const swarm::Error& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
