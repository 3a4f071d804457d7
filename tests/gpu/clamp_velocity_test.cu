// gpu-elementwise's fp32 velocity clamp (clamp_padded_velocity: two NaN-propagating min / max instructions, with
// v_max padded as pad_bounds_kernel pads it, no clamp as +infinity) gives pso::clamp_velocity's value for the
// user's v_max, bit for bit: NaN, infinities, signed zeros, the bounds themselves, subnormals and ordinary values.
// Its position clamp (clamp_padded_position, min / max too) gives pso::move's Clamp rule likewise, for every pair of
// bounds that clamps_by_min_max accepts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "gpu/elementwise/elementwise_kernel.cuh"
#include "swarm/optimizer.h"

namespace {

__global__ void clamp_each(const float* v, const float* padded_vmax, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = swarm::gpu::ew::clamp_padded_velocity(v[i], padded_vmax[i]);
}

__global__ void clamp_positions(const float* x, const float* lo, const float* hi, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = swarm::gpu::ew::clamp_padded_position(x[i], lo[i], hi[i]);
}

// The kernel over n inputs of three arrays (the third may be unused), its results.
template <typename Kernel>
std::vector<float> on_device(Kernel kernel, const std::vector<float>& a, const std::vector<float>& b,
                             const std::vector<float>& c) {
    const int n = static_cast<int>(a.size());
    const std::size_t bytes = a.size() * sizeof(float);
    float *da = nullptr, *db = nullptr, *dc = nullptr, *dout = nullptr;
    EXPECT_EQ(cudaMalloc(&da, bytes), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&db, bytes), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&dc, bytes), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&dout, bytes), cudaSuccess);
    cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice);
    if (!c.empty()) cudaMemcpy(dc, c.data(), bytes, cudaMemcpyHostToDevice);
    kernel(da, db, dc, dout, n);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<float> out(a.size());
    cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dout);
    return out;
}

std::uint32_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

TEST(ElementwiseClamp, PaddedClampEqualsTheReference) {
    if (!swarm::cuda_device_present()) GTEST_SKIP() << "no CUDA device";
    constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    constexpr float big = std::numeric_limits<float>::max(), tiny = std::numeric_limits<float>::denorm_min();
    const std::vector<float> values = {nan, -nan, inf, -inf, 0.f, -0.f, tiny, -tiny, 0.5f, -0.5f, 1.f, -1.f, 2.f,
                                       -2.f, 3.f, -3.f, 1e30f, -1e30f, big, -big};
    const std::vector<float> vmaxes = {0.5f, 1.f, 2.f, 0.f, -0.f, -1.f, nan, inf, tiny, big}; // as the user gives it
    std::vector<float> v, vmax;
    for (const float a : values) {
        for (const float m : vmaxes) {
            v.push_back(a);
            vmax.push_back(m);
        }
    }
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> u(-4.f, 4.f), m(0.f, 3.f);
    for (int i = 0; i < 10000; ++i) {
        v.push_back(u(gen));
        vmax.push_back(m(gen));
    }
    const int n = static_cast<int>(v.size());
    std::vector<float> padded(vmax.size());
    for (std::size_t i = 0; i < vmax.size(); ++i) padded[i] = vmax[i] > 0.f ? vmax[i] : inf; // pad_bounds_kernel's rule
    const std::vector<float> out = on_device(
        [](const float* a, const float* b, const float*, float* o, int count) {
            clamp_each<<<(count + 255) / 256, 256>>>(a, b, o, count);
        },
        v, padded, {});

    for (int i = 0; i < n; ++i) {
        const float want = swarm::pso::clamp_velocity(v[i], vmax[i]);
        if (std::isnan(want)) {
            EXPECT_TRUE(std::isnan(out[i])) << "v " << v[i] << " v_max " << vmax[i];
        } else {
            EXPECT_EQ(bits(out[i]), bits(want)) << "v " << v[i] << " v_max " << vmax[i] << ": " << out[i] << " against "
                                                << want;
        }
    }
}

TEST(ElementwiseClamp, PaddedPositionClampEqualsTheReference) {
    if (!swarm::cuda_device_present()) GTEST_SKIP() << "no CUDA device";
    constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    constexpr float big = std::numeric_limits<float>::max(), tiny = std::numeric_limits<float>::denorm_min();
    const std::vector<float> values = {nan, -nan, inf, -inf, 0.f, -0.f, tiny, -tiny, 0.5f, -0.5f, 1.f, -1.f,
                                       2.f, -2.f, 5.12f, -5.12f, 100.f, -100.f, 1e30f, -1e30f, big, -big};
    std::vector<float> x, lo, hi;
    for (const float l : values) {
        for (const float h : values) {
            if (!swarm::gpu::ew::clamps_by_min_max(l, h)) continue; // such a run keeps pso::move
            for (const float a : values) {
                x.push_back(a);
                lo.push_back(l);
                hi.push_back(h);
            }
        }
    }
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> u(-8.f, 8.f), half(0.01f, 4.f);
    for (int i = 0; i < 10000; ++i) {
        const float c = u(gen), r = half(gen);
        x.push_back(u(gen));
        lo.push_back(c - r == 0.f ? -r : c - r);
        hi.push_back(c + r == 0.f ? r : c + r);
    }
    // Refused, so that a run with such a dimension keeps pso::move: a zero bound of either sign (min / max may
    // return the other zero), a NaN bound, an empty box.
    using swarm::gpu::ew::clamps_by_min_max;
    EXPECT_FALSE(clamps_by_min_max(0.f, 1.f) || clamps_by_min_max(-1.f, -0.f) || clamps_by_min_max(nan, 1.f) ||
                 clamps_by_min_max(-1.f, nan) || clamps_by_min_max(2.f, 1.f));
    EXPECT_TRUE(clamps_by_min_max(-inf, inf) && clamps_by_min_max(-5.12f, 5.12f) && clamps_by_min_max(1.f, 1.f));
    const std::vector<float> out = on_device(
        [](const float* a, const float* b, const float* c, float* o, int count) {
            clamp_positions<<<(count + 255) / 256, 256>>>(a, b, c, o, count);
        },
        x, lo, hi);
    for (std::size_t i = 0; i < x.size(); ++i) {
        float want = x[i], v = -0.f; // x + (-0) is x for every x: pso::move's rule on x itself
        swarm::pso::move(want, v, lo[i], hi[i], swarm::pso::BoundaryMode::Clamp, 0.f);
        EXPECT_EQ(bits(out[i]), bits(want)) << "x " << x[i] << " in [" << lo[i] << ", " << hi[i] << "]: " << out[i]
                                            << " against " << want;
    }
}

} // namespace
