// The device measurements behind the bandwidth figures of `bench --suite seeds`.
#include <gtest/gtest.h>

#include <cmath>

#include "swarm/device_bench.h"
#include "swarm/optimizer.h"

#if defined(SWARM_HAVE_CUDA)
// The update's traffic with no arithmetic is a real, finite rate and cannot beat the copy engine by much:
// both move data through the same DRAM (on the H200 it runs at about 90 % of the copy rate).
TEST(DeviceBench, StreamUpdateBandwidthIsBoundedByTheCopyRate) {
    if (!swarm::cuda_device_present()) GTEST_SKIP() << "no CUDA device";
    const double copy = swarm::measure_device_copy_bandwidth(std::size_t(256) << 20, 5);
    const double update = swarm::measure_stream_update_bandwidth(std::size_t(32) << 20, 5);
    ASSERT_TRUE(std::isfinite(copy) && std::isfinite(update));
    EXPECT_GT(copy, 0.0);
    EXPECT_GT(update, 0.1 * copy);
    EXPECT_LT(update, 1.25 * copy);
}
#endif
