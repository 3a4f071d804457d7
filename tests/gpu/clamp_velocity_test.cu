// gpu-elementwise's fp32 velocity clamp (clamp_padded_velocity: two NaN-propagating min / max instructions, with
// v_max padded as pad_bounds_kernel pads it, no clamp as +infinity) gives pso::clamp_velocity's value for the
// user's v_max, bit for bit: NaN, infinities, signed zeros, the bounds themselves, subnormals and ordinary values.
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

    float *dv = nullptr, *dm = nullptr, *dout = nullptr;
    ASSERT_EQ(cudaMalloc(&dv, n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dm, n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&dout, n * sizeof(float)), cudaSuccess);
    cudaMemcpy(dv, v.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dm, padded.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    clamp_each<<<(n + 255) / 256, 256>>>(dv, dm, dout, n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<float> out(static_cast<std::size_t>(n));
    cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dv);
    cudaFree(dm);
    cudaFree(dout);

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

} // namespace
