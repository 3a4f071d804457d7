// Sign-class faces rectified on the GPU (tracker/src/cuda/rectify.cu) agree with the CPU's (the same
// common/rectify_math.h), for ten signs of a frame in one launch; and the tracker's classes on a device frame are the
// host frame's (label: gpu).
#include <gtest/gtest.h>

#include <cstdio>

#include <cuda_runtime.h>

#include <opencv2/core/cuda.hpp>
#include <opencv2/imgproc.hpp>

#include "cuda/device_frame.h"
#include "cuda/rectify.h"
#include "face_maps.h"
#include "scenes/synthetic.h"
#include "swarm/cuda/memory.h"
#include "swarm/optimizer.h"
#include "tracker/model.h"
#include "tracker/sign_classes.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

TEST(GpuRectify, TenFacesInOneLaunchAgreeWithTheCpu) {
    if (!swarm::cuda_device_present()) {
        GTEST_SKIP() << "no CUDA device";
    }
    const auto models = load_sign_models("", {Category::Prohibitory, Category::Danger, Category::Mandatory,
                                              Category::GiveWay, Category::Stop});
    const Camera cam = Camera::from_fov(1280, 720, 60);
    cv::Mat frame(720, 1280, CV_8UC3);
    cv::randn(frame, cv::Scalar(90, 110, 100), cv::Scalar(25, 25, 25));
    std::vector<math::FaceMap> maps;
    for (int i = 0; i < 10; ++i) {
        const SignModel& m = models[static_cast<std::size_t>(i) % models.size()];
        Pose p;
        p.x = -8 + 1.8 * i;
        p.y = (i % 3 - 1) * 1.5;
        p.z = 6 + 3 * i; // near (averaged taps) to far (one tap)
        p.yaw = (i % 5 - 2) * 10;
        p.roll = (i % 4 - 2) * 4;
        render_sign(frame, cam, m, p);
        maps.push_back(face_map_for(cam, m, p));
    }
    // Half a sign beyond the image: both clamp at the border alike.
    maps.push_back(face_map_for_box(cv::Rect2f(1260, 700, 40, 40)));
    std::vector<cv::Mat> cpu, gpu;
    rectify_faces_cpu(frame, maps, cpu);
    DeviceFrame device;
    device.process(frame);
    const DeviceFrame::Image im = device.image();
    ASSERT_NE(im.data, nullptr);
    DeviceRectifier rectifier;
    double ms = 0;
    for (int rep = 0; rep < 5; ++rep) { // the first launch pays for module loading
        ms = rectifier.rectify(im.data, im.pitch, im.width, im.height, maps, k_face_side, gpu, device.stream());
    }
    ASSERT_EQ(gpu.size(), cpu.size());
    long long off = 0, pixels = 0;
    for (std::size_t i = 0; i < cpu.size(); ++i) {
        cv::Mat d;
        cv::absdiff(cpu[i], gpu[i], d);
        double worst = 0;
        cv::minMaxLoc(d, nullptr, &worst);
        EXPECT_LE(worst, 1.0) << "face " << i; // float rounding at a half grey level, at most
        off += cv::countNonZero(d);
        pixels += d.total();
    }
    EXPECT_LT(static_cast<double>(off) / static_cast<double>(pixels), 0.01);
    std::printf("rectification of %zu faces: %.4f ms GPU time (copies included)\n", maps.size(), ms);
    RecordProperty("rectify_gpu_ms", std::to_string(ms));
}

TEST(GpuRectify, DeviceFrameDetectionsCarryTheHostFramesClasses) {
    if (!swarm::cuda_device_present()) {
        GTEST_SKIP() << "no CUDA device";
    }
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cuda;
    s.search.particles = 32;
    s.search.generations = 30;
    auto scene = create_scene("easy", 640, 360, 5);
    auto host = create_tracker(s, scene->camera());
    auto device = create_tracker(s, scene->camera());
    const swarm::gpu::PitchedBuffer2D<unsigned char> frame(360, 640 * 3);
    int detections = 0;
    for (int f = 0; f < 8; ++f) {
        const SceneFrame sf = scene->next();
        ASSERT_EQ(cudaMemcpy2D(frame.data(), frame.pitch(), sf.bgr.data, sf.bgr.step, 640 * 3, 360, cudaMemcpyHostToDevice),
                  cudaSuccess);
        const FrameResult a = host->process(sf.bgr);
        const FrameResult b = device->process(cv::cuda::GpuMat(360, 640, CV_8UC3, frame.data(), frame.pitch()));
        ASSERT_EQ(b.detections.size(), a.detections.size()) << "frame " << f;
        for (std::size_t i = 0; i < a.detections.size(); ++i) {
            EXPECT_EQ(b.detections[i].class_id, a.detections[i].class_id) << "frame " << f;
            EXPECT_NEAR(b.detections[i].class_confidence, a.detections[i].class_confidence, 1e-3) << "frame " << f;
            ++detections;
        }
        EXPECT_GE(a.timing.classify_gpu_ms, 0.0);
    }
    EXPECT_GT(detections, 0);
}

} // namespace
} // namespace tracker
