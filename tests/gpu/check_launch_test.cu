// A failed kernel launch is reported with the kernel, its launch configuration and the CUDA message
// (SWARM_CHECK_LAUNCH), and the strategy's name is put in front on the way out.
#include <gtest/gtest.h>

#include <string>

#include "swarm/cuda/check.h"
#include "swarm/optimizer.h"

namespace {

__global__ void never_runs(int* out) {
    if (out) *out = 1;
}

TEST(CheckLaunch, InvalidConfigurationNamesKernelAndConfiguration) {
    if (!swarm::cuda_device_present()) GTEST_SKIP() << "no CUDA device";
    never_runs<<<4, 2048, 0>>>(nullptr); // 2048 threads per block: more than any GPU allows
    try {
        SWARM_CHECK_LAUNCH(never_runs, 4, 2048, 0);
        FAIL() << "the invalid launch was not reported";
    } catch (const swarm::CudaError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("launch of never_runs <<<(4,1,1), (2048,1,1), 0 B>>>"), std::string::npos) << m;
        EXPECT_NE(m.find("check_launch_test.cu"), std::string::npos) << m;
        try {
            throw;
        } catch (const swarm::CudaError&) {
            try {
                swarm::gpu::rethrow_with_strategy("gpu-test");
            } catch (const swarm::CudaError& named) {
                EXPECT_EQ(std::string(named.what()), "gpu-test: " + m);
            }
        }
    }
    // The error was not sticky: the device still works.
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

} // namespace
