// GPU faults: a request larger than the device gives a clear error, --backend auto falls back
// to the CPU when the GPU runs out of memory, and CUDA errors name the strategy. Skips without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "swarm/errors.h"
#include "swarm/optimizer.h"

namespace {

#define REQUIRE_GPU()                                                                                                  \
    if (!swarm::cuda_device_present()) GTEST_SKIP() << "no CUDA device"

// A sphere evaluator whose device path fails the way a device evaluator does when the GPU is full (or a
// kernel of it fails), and whose host path works.
class FailingOnDevice final : public swarm::BatchEvaluator {
public:
    explicit FailingOnDevice(bool out_of_memory) : m_oom(out_of_memory) {}
    bool supports(swarm::MemorySpace) const override { return true; }
    void evaluate(const float* x, float* f, const swarm::BatchShape& shape, swarm::MemorySpace where, void*) override {
        if (where == swarm::MemorySpace::Device) {
            if (m_oom) throw swarm::OutOfMemoryError("test evaluator: cudaMalloc failed: out of memory");
            throw swarm::CudaError("test.cu:1: launch of test_kernel <<<(4,1,1), (2048,1,1), 0 B>>> failed: invalid configuration argument");
        }
        for (std::size_t r = 0; r < shape.rows(); ++r) {
            double s = 0;
            for (int d = 0; d < shape.dims; ++d) s += double(x[r * shape.dims + d]) * x[r * shape.dims + d];
            f[r] = static_cast<float>(s);
        }
    }

private:
    bool m_oom;
};

swarm::Problem evaluator_problem(bool oom) {
    swarm::Problem p;
    p.dims = 4;
    p.lower.assign(4, -5.0);
    p.upper.assign(4, 5.0);
    p.evaluator = std::make_shared<FailingOnDevice>(oom);
    return p;
}

TEST(GpuFaults, RequestLargerThanTheDeviceIsAClearError) {
    REQUIRE_GPU();
    // 2^26 particles x 4096 dims: 1 TiB of positions alone, more than any GPU holds.
    swarm::Params params;
    params.swarms = 1 << 12;
    params.particles = 1 << 14;
    params.iterations = 1;
    const swarm::Problem problem = swarm::Problem::benchmark(swarm::Function::Sphere, 4096);
    for (const auto s : swarm::all_strategies()) {
        if (!swarm::is_gpu(s) || swarm::is_bees(s)) continue;
        SCOPED_TRACE(std::string(swarm::to_string(s)));
        try {
            swarm::create_optimizer(s)->run(problem, params);
            ADD_FAILURE() << "a 1 TiB request ran";
        } catch (const swarm::OutOfMemoryError& e) {
            const std::string m = e.what();
            EXPECT_NE(m.find(std::string(swarm::to_string(s))), std::string::npos) << m;
            EXPECT_NE(m.find("out of memory"), std::string::npos) << m;
            EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        } catch (const swarm::ValidationError& e) {
            // A strategy whose own limits (block size, on-chip state) reject the shape first: also clear.
            EXPECT_FALSE(std::string(e.what()).empty());
        } catch (const swarm::UnavailableError& e) {
            EXPECT_FALSE(std::string(e.what()).empty());
        }
    }
    // The device is still usable afterwards.
    swarm::Params small;
    small.particles = 32;
    small.iterations = 50;
    const auto r = swarm::optimize(swarm::Problem::benchmark(swarm::Function::Sphere, 8), small, swarm::Strategy::Auto,
                                   swarm::Backend::Cuda);
    EXPECT_LT(r.best().best_fitness, 1.0);
}

TEST(GpuFaults, AutoFallsBackToTheCpuWhenTheGpuRunsOutOfMemory) {
    REQUIRE_GPU();
    swarm::Params params;
    params.particles = 32;
    params.iterations = 40;
    std::string note;
    const auto r = swarm::optimize(evaluator_problem(true), params, swarm::Strategy::Auto, swarm::Backend::Auto, &note);
    EXPECT_FALSE(swarm::is_gpu(r.strategy)) << swarm::to_string(r.strategy);
    EXPECT_NE(note.find("ran out of GPU memory"), std::string::npos) << note;
    EXPECT_NE(note.find("falling back to cpu-"), std::string::npos) << note;
    EXPECT_LT(r.best().best_fitness, 1.0);
    // --backend cuda asked for the GPU: the error, no fallback.
    EXPECT_THROW(swarm::optimize(evaluator_problem(true), params, swarm::Strategy::Auto, swarm::Backend::Cuda),
                 swarm::OutOfMemoryError);
}

TEST(GpuFaults, KernelErrorsNameTheStrategyAndTheLaunch) {
    REQUIRE_GPU();
    swarm::Params params;
    params.particles = 32;
    params.iterations = 10;
    try {
        swarm::create_optimizer(swarm::Strategy::GpuFused)->run(evaluator_problem(false), params);
        FAIL() << "the failing evaluator was not reported";
    } catch (const swarm::OutOfMemoryError&) {
        FAIL() << "a kernel error became out-of-memory";
    } catch (const swarm::CudaError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("gpu-fused: ", 0), 0u) << m;
        EXPECT_NE(m.find("<<<(4,1,1), (2048,1,1), 0 B>>>"), std::string::npos) << m;
    }
    // Not an out-of-memory: --backend auto does not hide it behind a fallback.
    EXPECT_THROW(swarm::optimize(evaluator_problem(false), params, swarm::Strategy::Auto, swarm::Backend::Auto),
                 swarm::CudaError);
}

} // namespace
