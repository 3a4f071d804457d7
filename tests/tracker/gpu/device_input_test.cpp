// The tracker's device-frame input (Tracker::process(cv::cuda::GpuMat) over a caller's device memory) gives
// the same detections as the host frame, with no upload stage (label: gpu).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <opencv2/core/cuda.hpp>

#include "scenes/synthetic.h"
#include "swarm/cuda/memory.h"
#include "swarm/optimizer.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

TEST(GpuDeviceFrame, SameDetectionsAsTheHostFrameAndNoUpload) {
    if (!swarm::cuda_device_present()) {
        GTEST_SKIP() << "no CUDA device";
    }
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cuda;
    s.search.particles = 32;
    s.search.generations = 30;
    auto scene = create_scene("crowded", 640, 360, 5);
    auto host = create_tracker(s, scene->camera());
    auto device = create_tracker(s, scene->camera());
    const swarm::gpu::PitchedBuffer2D<unsigned char> frame(360, 640 * 3);
    unsigned char* data = frame.data();
    const std::size_t pitch = frame.pitch();
    int detections = 0;
    for (int f = 0; f < 12; ++f) {
        const SceneFrame sf = scene->next();
        ASSERT_EQ(cudaMemcpy2D(data, pitch, sf.bgr.data, sf.bgr.step, 640 * 3, 360, cudaMemcpyHostToDevice),
                  cudaSuccess);
        const FrameResult a = host->process(sf.bgr);
        const FrameResult b = device->process(cv::cuda::GpuMat(360, 640, CV_8UC3, data, pitch));
        EXPECT_GT(a.timing.upload_ms, 0.0);
        EXPECT_EQ(b.timing.upload_ms, 0.0) << "frame " << f;
        ASSERT_EQ(b.detections.size(), a.detections.size()) << "frame " << f;
        for (std::size_t i = 0; i < a.detections.size(); ++i) {
            EXPECT_EQ(b.detections[i].category, a.detections[i].category);
            EXPECT_EQ(b.detections[i].track_id, a.detections[i].track_id);
            EXPECT_EQ(b.detections[i].fitness, a.detections[i].fitness) << "frame " << f;
        }
        detections += static_cast<int>(a.detections.size());
    }
    EXPECT_GT(detections, 0) << "the scene's signs were found at all";
    // Wrong frame type: a one-line error, no crash.
    EXPECT_THROW(device->process(cv::cuda::GpuMat(360, 640, CV_8UC1, data, pitch)), std::invalid_argument);
}

} // namespace
} // namespace tracker
