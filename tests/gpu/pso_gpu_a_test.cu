// gpu-sync, gpu-ring-3k/2k and gpu-fused beyond the shared suite (pso_gpu_test.cpp): ring wrap-around
// against cpu-serial's ring, gpu-fused's grid and evaluator paths, early stopping, concurrent use from
// several host threads, and custom functors (swarm/cuda/custom.cuh). Compiled with nvcc; every case skips
// without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "history_check.h"
#include "swarm/cuda/custom.cuh"
#include "swarm/errors.h"
#include "swarm/optimizer.h"

using swarm::Strategy;

namespace {

bool have_gpu() { return swarm::cuda_device_present(); }
#define SKIP_WITHOUT_GPU()                                                                                             \
    if (!have_gpu()) GTEST_SKIP() << "no CUDA device"

// Every particle's neighbourhood wraps around the ring (N = 2r + 1 .. 2r + 3), radius 1..3.
TEST(GpuRing, WrapAroundFollowsCpuRing) {
    SKIP_WITHOUT_GPU();
    struct Shape { int swarms, particles, radius; };
    const auto problem = swarm::Problem::benchmark(swarm::Function::Rastrigin, 3);
    for (const auto s : {Strategy::GpuSync, Strategy::GpuFused, Strategy::GpuRing3k, Strategy::GpuRing2k}) {
        for (const auto sh : {Shape{2, 5, 1}, Shape{1, 3, 1}, Shape{3, 5, 2}, Shape{2, 9, 3}, Shape{1, 40, 2}}) {
            auto p = traced(sh.swarms, sh.particles, 40, swarm::Topology::Ring);
            p.ring_radius = sh.radius;
            const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
            const auto gpu = swarm::create_optimizer(s)->run(problem, p);
            expect_same_history(gpu, cpu, 1e-7, std::string(swarm::to_string(s)) + " N=" +
                                                    std::to_string(sh.particles) + " r=" + std::to_string(sh.radius));
        }
    }
}

// The ring is really a ring: on a 64-particle swarm its trajectory differs from the global topology's.
TEST(GpuRing, RingIsNotGlobal) {
    SKIP_WITHOUT_GPU();
    const auto problem = swarm::Problem::benchmark(swarm::Function::Rastrigin, 5);
    const auto ring = swarm::create_optimizer(Strategy::GpuRing2k)->run(problem, traced(1, 64, 50, swarm::Topology::Ring));
    const auto glob = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, traced(1, 64, 50, swarm::Topology::Global));
    EXPECT_NE(ring.swarms[0].history, glob.swarms[0].history);
}

TEST(GpuRing, RejectsGlobalTopology) {
    SKIP_WITHOUT_GPU();
    const auto problem = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    EXPECT_THROW(swarm::create_optimizer(Strategy::GpuRing3k)->run(problem, swarm::Params{}), swarm::ValidationError);
}

// gpu-fused's cooperative grid kernel (swarms bigger than a block, or few swarms with much work).
TEST(GpuFused, GridPathFollowsCpu) {
    SKIP_WITHOUT_GPU();
    struct Shape { int swarms, particles, dims; };
    for (const auto topo : {swarm::Topology::Global, swarm::Topology::Ring}) {
        for (const auto sh : {Shape{1, 2048, 2}, Shape{2, 600, 16}, Shape{3, 1500, 1}}) {
            const auto problem = swarm::Problem::benchmark(swarm::Function::Rastrigin, sh.dims);
            const auto p = traced(sh.swarms, sh.particles, 25, topo);
            const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
            const auto gpu = swarm::create_optimizer(Strategy::GpuFused)->run(problem, p);
            expect_same_history(gpu, cpu, 1e-7, "grid " + std::to_string(sh.particles) + "x" + std::to_string(sh.dims));
            for (int s = 0; s < sh.swarms; ++s) {
                EXPECT_EQ(gpu.swarms[s].best_position.size(), static_cast<std::size_t>(sh.dims));
                EXPECT_NEAR(gpu.swarms[s].best_fitness, cpu.swarms[s].best_fitness, 1e-7);
            }
        }
    }
}

// Wide ring swarms run RingPSO's two kernels fused into one cooperative launch (no history there). Separable
// built-in functions are scored a warp per particle there (sum / product by butterfly), the rest (Rosenbrock)
// a thread per particle: both agree with cpu-serial.
TEST(GpuFused, GridPhasesPathMatchesCpu) {
    SKIP_WITHOUT_GPU();
    for (const auto f : {swarm::Function::Rastrigin, swarm::Function::Griewank, swarm::Function::Ackley,
                         swarm::Function::Rosenbrock}) {
        for (const auto sh : {std::pair{1, 300}, std::pair{3, 257}}) {
            const auto problem = swarm::Problem::benchmark(f, 40);
            auto p = traced(sh.first, sh.second, 30, swarm::Topology::Ring);
            p.record_history = false;
            const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
            const auto gpu = swarm::create_optimizer(Strategy::GpuFused)->run(problem, p);
            const std::string what = std::string(swarm::info(f).name) + " " + std::to_string(sh.first) + "x" +
                                     std::to_string(sh.second);
            for (int s = 0; s < sh.first; ++s) {
                EXPECT_NEAR(gpu.swarms[s].best_fitness, cpu.swarms[s].best_fitness,
                            1e-7 * std::max(1.0, std::fabs(cpu.swarms[s].best_fitness)))
                    << what;
                for (int d = 0; d < 40; ++d) {
                    EXPECT_NEAR(gpu.swarms[s].best_position[d], cpu.swarms[s].best_position[d], 1e-6) << what;
                }
            }
        }
    }
}

// Early stopping stops at the very generation cpu-serial stops, for each gpu-fused path.
TEST(GpuFused, EarlyStoppingMatchesCpu) {
    SKIP_WITHOUT_GPU();
    struct Case { Strategy s; int swarms, particles, dims; };
    for (const auto c : {Case{Strategy::GpuFused, 4, 32, 3}, Case{Strategy::GpuFused, 1, 2048, 2},
                         Case{Strategy::GpuSync, 4, 32, 3}, Case{Strategy::GpuRing2k, 2, 16, 2}}) {
        for (const bool stall : {false, true}) {
            // The maximised cubic's optimum sits on the bound, where the swarm stalls exactly.
            const auto problem = swarm::Problem::benchmark(stall ? swarm::Function::Cubic : swarm::Function::Sphere, c.dims);
            auto p = traced(c.swarms, c.particles, 5000, c.s == Strategy::GpuRing2k ? swarm::Topology::Ring
                                                                                   : swarm::Topology::Global);
            p.record_history = false;
            if (stall) {
                p.stall_iterations = 30;
                p.target_error = std::nan("");
            } else {
                p.target_error = 1e-6;
            }
            const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
            const auto gpu = swarm::create_optimizer(c.s)->run(problem, p);
            EXPECT_LT(cpu.iterations, 5000);
            EXPECT_EQ(gpu.iterations, cpu.iterations) << swarm::to_string(c.s) << " stall=" << stall;
            EXPECT_EQ(gpu.stop_reason, cpu.stop_reason);
            EXPECT_NEAR(gpu.best().best_fitness, cpu.best().best_fitness, 1e-9);
        }
    }
}

// A toy batched evaluator: Sphere as a batch kernel on the engine's stream (and a host path).
__global__ void sphere_rows(const float* x, float* f, int rows, int dims, float sign) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        f[r] = sign * swarm::fn::sphere(x + static_cast<std::size_t>(r) * dims, dims);
    }
}

class SphereEvaluator final : public swarm::BatchEvaluator {
public:
    explicit SphereEvaluator(float sign) : m_sign(sign) {}
    bool supports(swarm::MemorySpace) const override { return true; }
    void evaluate(const float* x, float* f, const swarm::BatchShape& shape, swarm::MemorySpace where,
                  void* stream) override {
        const int rows = static_cast<int>(shape.rows());
        if (where == swarm::MemorySpace::Host) {
            for (int r = 0; r < rows; ++r) f[r] = m_sign * swarm::fn::sphere(x + static_cast<std::size_t>(r) * shape.dims, shape.dims);
            return;
        }
        ++calls;
        saw_null_stream = saw_null_stream || stream == nullptr;
        sphere_rows<<<(rows + 127) / 128, 128, 0, static_cast<cudaStream_t>(stream)>>>(x, f, rows, shape.dims, m_sign);
        ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    }
    int calls = 0;
    bool saw_null_stream = false;

private:
    float m_sign;
};

TEST(GpuFused, EvaluatorHookFollowsBuiltin) {
    SKIP_WITHOUT_GPU();
    for (const auto topo : {swarm::Topology::Global, swarm::Topology::Ring}) {
        for (const bool maximise : {false, true}) {
            const auto builtin = swarm::Problem::benchmark(swarm::Function::Sphere, 6);
            auto hooked = builtin;
            auto eval = std::make_shared<SphereEvaluator>(maximise ? -1.0f : 1.0f);
            hooked.evaluator = eval;
            hooked.goal = maximise ? swarm::Goal::Maximise : swarm::Goal::Minimise;
            hooked.known_optimum = 0.0;
            auto p = traced(5, 24, 60, topo);
            p.precision = swarm::Precision::FP32;
            const auto ref = swarm::create_optimizer(Strategy::GpuFused)->run(builtin, p);
            const auto gpu = swarm::create_optimizer(Strategy::GpuFused)->run(hooked, p);
            const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(hooked, p);
            EXPECT_EQ(eval->calls, 61); // initialisation + one per generation, all swarms at once
            EXPECT_FALSE(eval->saw_null_stream);
            const double sgn = maximise ? -1.0 : 1.0;
            ASSERT_EQ(gpu.swarms.size(), ref.swarms.size());
            for (std::size_t s = 0; s < ref.swarms.size(); ++s) {
                for (std::size_t t = 0; t < ref.swarms[s].history.size(); ++t) {
                    ASSERT_NEAR(sgn * gpu.swarms[s].history[t], ref.swarms[s].history[t],
                                1e-5 * std::max(1.0, ref.swarms[s].history[t])) << "swarm " << s << " t " << t;
                    ASSERT_NEAR(gpu.swarms[s].history[t], cpu.swarms[s].history[t],
                                1e-4 * std::max(1.0, std::fabs(cpu.swarms[s].history[t])));
                }
            }
        }
    }
}

TEST(GpuFused, EvaluatorNeedsFp32) {
    SKIP_WITHOUT_GPU();
    auto problem = swarm::Problem::benchmark(swarm::Function::Sphere, 2);
    problem.evaluator = std::make_shared<SphereEvaluator>(1.0f);
    swarm::Params p;
    p.precision = swarm::Precision::FP64;
    EXPECT_THROW(swarm::create_optimizer(Strategy::GpuFused)->run(problem, p), swarm::ValidationError);
    EXPECT_THROW(swarm::create_optimizer(Strategy::GpuSync)->run(problem, swarm::Params{}), swarm::ValidationError);
}

// Several host threads, each with its own optimizer (and so its own CUDA stream), at once: the results
// equal the same runs made one after another.
TEST(GpuAsync, ConcurrentRunsFromHostThreads) {
    SKIP_WITHOUT_GPU();
    const auto problem = swarm::Problem::benchmark(swarm::Function::Rastrigin, 8);
    for (const auto s : {Strategy::GpuFused, Strategy::GpuSync, Strategy::GpuRing2k, Strategy::GpuRing3k}) {
        constexpr int k_threads = 4;
        std::vector<swarm::Params> params(k_threads);
        std::vector<swarm::Result> alone(k_threads), together(k_threads);
        for (int k = 0; k < k_threads; ++k) {
            params[k].swarms = 6;
            params[k].particles = k == 3 ? 1200 : 48; // thread 3 takes gpu-fused's grid kernel
            params[k].iterations = 300;
            params[k].topology = swarm::Topology::Ring;
            params[k].seed = 100 + k;
            if (s == Strategy::GpuSync && params[k].particles > 1024) params[k].particles = 1024;
            alone[k] = swarm::create_optimizer(s)->run(problem, params[k]);
        }
        std::vector<std::thread> pool;
        for (int k = 0; k < k_threads; ++k) {
            pool.emplace_back([&, k] { together[k] = swarm::create_optimizer(s)->run(problem, params[k]); });
        }
        for (auto& t : pool) t.join();
        for (int k = 0; k < k_threads; ++k) {
            for (int w = 0; w < params[k].swarms; ++w) {
                EXPECT_EQ(together[k].swarms[w].best_fitness, alone[k].swarms[w].best_fitness) << swarm::to_string(s);
                EXPECT_EQ(together[k].swarms[w].best_position, alone[k].swarms[w].best_position);
            }
        }
    }
}

// A user functor, templated on the precision, callable on host and device: sum (x_i - c)^2 + 1.
struct ShiftedSphere {
    double c;
    template <typename Real>
    __host__ __device__ Real operator()(const Real* x, int dims) const {
        Real s = 1;
        for (int i = 0; i < dims; ++i) {
            const Real z = x[i] - static_cast<Real>(c);
            s += z * z;
        }
        return s;
    }
};

TEST(GpuCustom, FunctorFollowsCpuSerial) {
    SKIP_WITHOUT_GPU();
    swarm::Problem problem;
    problem.dims = 4;
    problem.lower = std::vector<double>(4, -10.0);
    problem.upper = std::vector<double>(4, 10.0);
    problem.known_optimum = 1.0;
    problem.host_function = swarm::cuda::host_function(ShiftedSphere{2.5});
    for (const auto s : {Strategy::GpuFused, Strategy::GpuSync}) {
        for (const auto topo : {swarm::Topology::Global, swarm::Topology::Ring}) {
            const auto p = traced(3, 30, 80, topo);
            const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
            const auto gpu = swarm::cuda::optimize(problem, p, ShiftedSphere{2.5}, s);
            EXPECT_EQ(gpu.strategy, s);
            expect_same_history(gpu, cpu, 1e-7, std::string("functor ") + std::string(swarm::to_string(s)));
        }
    }
    // A big swarm takes gpu-fused's grid kernel with the functor inlined too.
    const auto p = traced(1, 1500, 30, swarm::Topology::Global);
    expect_same_history(swarm::cuda::optimize(problem, p, ShiftedSphere{2.5}),
                        swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p), 1e-7, "functor grid");
}

// Extended lambdas may not live in a TEST body (a private member function), hence a free function.
void check_lambdas_and_maximise() {
    swarm::Problem problem;
    problem.dims = 2;
    problem.lower = {-4, -4};
    problem.upper = {4, 4};
    problem.goal = swarm::Goal::Maximise; // peak 3 at (1, -1)
    swarm::Params p;
    p.swarms = 4;
    p.particles = 32;
    p.iterations = 400;
    auto peak = [] __device__(const float* x, int) { return 3.0f - (x[0] - 1) * (x[0] - 1) - (x[1] + 1) * (x[1] + 1); };
    const auto r = swarm::cuda::optimize(problem, p, peak);
    EXPECT_NEAR(r.best().best_fitness, 3.0, 1e-5);
    EXPECT_NEAR(r.best().best_position[0], 1.0, 1e-2);
    EXPECT_NEAR(r.best().best_position[1], -1.0, 1e-2);
    p.precision = swarm::Precision::FP64; // a float-only __device__ lambda cannot score fp64
    EXPECT_THROW(swarm::cuda::optimize(problem, p, peak), swarm::ValidationError);

    auto both = [] __host__ __device__(const double* x, int) { return 3.0 - (x[0] - 1) * (x[0] - 1) - (x[1] + 1) * (x[1] + 1); };
    problem.host_function = swarm::cuda::host_function(both);
    p.record_history = true;
    const auto cpu = swarm::create_optimizer(Strategy::CpuSerial)->run(problem, p);
    const auto gpu = swarm::cuda::optimize(problem, p, both, Strategy::GpuSync);
    expect_same_history(gpu, cpu, 1e-7, "host-device lambda");
    EXPECT_THROW(swarm::cuda::optimize(problem, p, both, Strategy::GpuRing2k), swarm::ValidationError);
}

TEST(GpuCustom, LambdasAndMaximise) {
    SKIP_WITHOUT_GPU();
    check_lambdas_and_maximise();
}

} // namespace
