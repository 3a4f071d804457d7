// CPU and GPU agree: preprocessing maps and fitness of every particle of every swarm (label: gpu).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <opencv2/imgproc.hpp>

#include "cuda/device_frame.h"
#include "preprocess.h"
#include "scenes/synthetic.h"
#include "sign_evaluator.h"
#include "swarm/cuda/memory.h"
#include "swarm/cuda/stream.h"
#include "swarm/optimizer.h"
#include "tracker/model.h"

namespace tracker {
namespace {

bool have_gpu() { return swarm::cuda_device_present(); }

cv::Mat scene_frame(const std::string& scene, int w, int h, int skip) {
    auto s = create_scene(scene, w, h, 3);
    SceneFrame f;
    for (int i = 0; i <= skip; ++i) {
        f = s->next();
    }
    return f.bgr;
}

struct Size {
    int w, h;
};
class GpuAgreement : public ::testing::TestWithParam<Size> {};

// With the default paint coverage and with FitnessSettings::cover_hue under 180 (the coverage's maximum over the
// pixel's own hue).
TEST_P(GpuAgreement, PreprocessingMatchesCpu) {
    if (!have_gpu()) {
        GTEST_SKIP() << "no CUDA device";
    }
    const auto [w, h] = GetParam();
    const cv::Mat frame = scene_frame("crowded", w, h, 40);
    ClassMaps every_hue;
    for (const float cover_hue : {180.f, 28.f}) {
        ClassMaps cpu, gpu;
        preprocess_cpu(frame, cpu, cover_hue);
        DeviceFrame dev;
        dev.process(frame, cover_hue);
        dev.download(gpu);
        EXPECT_FLOAT_EQ(cpu.mean_value, gpu.mean_value);
        cv::Mat diff;
        cv::absdiff(cpu.classes, gpu.classes, diff);
        double worst = 0;
        cv::minMaxLoc(diff.reshape(1), nullptr, &worst);
        EXPECT_LE(worst, 1.0) << "class maps differ by more than one 8-bit step, cover_hue " << cover_hue;
        cv::absdiff(cpu.gradient, gpu.gradient, diff);
        cv::minMaxLoc(diff.reshape(1), nullptr, &worst);
        EXPECT_LE(worst, 1e-4) << "cover_hue " << cover_hue;
        if (cover_hue == 180.f) {
            every_hue = cpu;
        } else {
            EXPECT_GT(cv::norm(cpu.classes, every_hue.classes, cv::NORM_L1), 0.0) << "the window changes the maps";
        }
    }
}

// The brightness sum lives in two slots used by alternate frames (each launch zeroes the other): frame after
// frame, from dark to bright and back, every frame's mean and maps are its own, not a sum carried over.
TEST_P(GpuAgreement, PreprocessingMatchesCpuFrameAfterFrame) {
    if (!have_gpu()) {
        GTEST_SKIP() << "no CUDA device";
    }
    const auto [w, h] = GetParam();
    DeviceFrame dev;
    int frame_index = 0;
    for (const char* scene : {"night", "easy", "noisy", "night", "crowded"}) {
        const cv::Mat frame = scene_frame(scene, w, h, 5 + frame_index);
        ClassMaps cpu, gpu;
        preprocess_cpu(frame, cpu);
        dev.process(frame);
        dev.download(gpu);
        EXPECT_FLOAT_EQ(cpu.mean_value, gpu.mean_value) << scene << ", frame " << frame_index;
        cv::Mat diff;
        cv::absdiff(cpu.classes, gpu.classes, diff);
        double worst = 0;
        cv::minMaxLoc(diff.reshape(1), nullptr, &worst);
        EXPECT_LE(worst, 1.0) << scene << ", frame " << frame_index;
        ++frame_index;
    }
}

// The white balance's channel sums live in the same alternating slots: frames of different colour casts in a
// row (cold, warm, strongly red, neutral) each get their own gains, the same as the CPU's.
TEST_P(GpuAgreement, PreprocessingMatchesCpuUnderColourCasts) {
    if (!have_gpu()) {
        GTEST_SKIP() << "no CUDA device";
    }
    const auto [w, h] = GetParam();
    DeviceFrame dev;
    const cv::Scalar casts[] = {{1.3, 1.0, 0.75}, {0.8, 1.0, 1.25}, {0.4, 0.5, 1.0}, {1.0, 1.0, 1.0}};
    int frame_index = 0;
    for (const cv::Scalar& cast : casts) {
        cv::Mat frame;
        cv::multiply(scene_frame("noisy", w, h, 3 + frame_index), cast, frame);
        ClassMaps cpu, gpu;
        preprocess_cpu(frame, cpu);
        dev.process(frame);
        dev.download(gpu);
        EXPECT_FLOAT_EQ(cpu.mean_value, gpu.mean_value) << "cast " << frame_index;
        cv::Mat diff;
        cv::absdiff(cpu.classes, gpu.classes, diff);
        double worst = 0;
        cv::minMaxLoc(diff.reshape(1), nullptr, &worst);
        EXPECT_LE(worst, 1.0) << "cast " << frame_index;
        ++frame_index;
    }
}

TEST_P(GpuAgreement, FitnessMatchesCpuForAllSwarms) {
    if (!have_gpu()) {
        GTEST_SKIP() << "no CUDA device";
    }
    const auto [w, h] = GetParam();
    const cv::Mat frame = scene_frame("easy", w, h, 60);
    const auto models = load_sign_models("", {Category::Prohibitory, Category::Danger, Category::Mandatory,
                                              Category::GiveWay, Category::Stop});
    const Camera cam = Camera::from_fov(w, h, 60);
    ClassMaps maps;
    preprocess_cpu(frame, maps);
    SignEvaluator cpu(models, PoseSpace{}, cam), gpu(models, PoseSpace{}, cam);
    DeviceFrame dev;
    dev.process(frame);
    cpu.set_host_maps(&maps);
    gpu.set_device_frame(&dev);
    const int swarms = 7, particles = 33;
    std::vector<SwarmTarget> targets;
    for (int s = 0; s < swarms; ++s) {
        targets.push_back({s % 5, s % 2 == 1});
    }
    cpu.set_targets(targets);
    gpu.set_targets(targets);
    cpu.set_masks({cv::Rect2f(w * 0.5f, h * 0.3f, 40, 40)}, {1});
    gpu.set_masks({cv::Rect2f(w * 0.5f, h * 0.3f, 40, 40)}, {1});
    std::vector<double> lo, hi;
    frustum_bounds(Frustum{}, cam, PoseSpace{}, lo, hi);
    cv::RNG rng(5);
    std::vector<float> pos(static_cast<std::size_t>(swarms * particles * 6));
    for (std::size_t i = 0; i < pos.size(); ++i) {
        pos[i] = static_cast<float>(rng.uniform(lo[i % 6], hi[i % 6]));
    }
    std::vector<float> fc(static_cast<std::size_t>(swarms * particles)), fg(fc.size());
    const swarm::BatchShape shape{swarms, particles, 6};
    cpu.evaluate(pos.data(), fc.data(), shape, swarm::MemorySpace::Host, nullptr);
    ASSERT_TRUE(gpu.supports(swarm::MemorySpace::Device));
    for (const int team : {1, 4, 2}) { // 2 (the default) last: the stream check below uses it
        dev.set_team_warps(team);
        gpu.evaluate(pos.data(), fg.data(), shape, swarm::MemorySpace::Host, nullptr); // copies in and out
        for (std::size_t i = 0; i < fc.size(); ++i) {
            // Texture filtering uses 8-bit fixed-point weights: allow a small absolute difference.
            EXPECT_NEAR(fc[i], fg[i], 5e-3) << "row " << i << ", team of " << team << " warps";
        }
    }
    EXPECT_THROW(dev.set_team_warps(3), std::invalid_argument);
    dev.set_team_warps(0); // auto: a small search gets teams of two, one far past the resident warps gets one
    EXPECT_EQ(auto_team_warps(512), 2);
    EXPECT_EQ(auto_team_warps(1u << 20), 1);
    // Asynchronous use on a caller's stream: device positions, device fitness.
    const swarm::gpu::Stream stream;
    swarm::gpu::DeviceBuffer<float> dpos, dfit;
    dpos.reserve(pos.size());
    dfit.reserve(fg.size());
    ASSERT_EQ(cudaMemcpyAsync(dpos.data(), pos.data(), pos.size() * sizeof(float), cudaMemcpyHostToDevice,
                              stream.get()),
              cudaSuccess);
    gpu.evaluate(dpos.data(), dfit.data(), shape, swarm::MemorySpace::Device, stream.get());
    std::vector<float> fa(fg.size());
    ASSERT_EQ(cudaMemcpyAsync(fa.data(), dfit.data(), fa.size() * sizeof(float), cudaMemcpyDeviceToHost,
                              stream.get()),
              cudaSuccess);
    stream.synchronize();
    for (std::size_t i = 0; i < fa.size(); ++i) {
        EXPECT_FLOAT_EQ(fa[i], fg[i]);
    }
}

// The blur allowance (FitnessSettings::paint_blur) holds each part's floor to what a blur leaves of it at the pose's
// scale: the same floors on the GPU, and they do change scores (the random poses include far, small ones).
TEST_P(GpuAgreement, FitnessMatchesCpuWithTheBlurAllowance) {
    if (!have_gpu()) {
        GTEST_SKIP() << "no CUDA device";
    }
    const auto [w, h] = GetParam();
    const cv::Mat frame = scene_frame("noisy", w, h, 30);
    const auto models = load_sign_models(
        "", {Category::Prohibitory, Category::Danger, Category::Mandatory, Category::GiveWay, Category::Stop});
    const Camera cam = Camera::from_fov(w, h, 60);
    ClassMaps maps;
    preprocess_cpu(frame, maps);
    math::FitnessWeights blur;
    blur.paint_blur = 1.2f;
    SignEvaluator plain(models, PoseSpace{}, cam), cpu(models, PoseSpace{}, cam, blur),
        gpu(models, PoseSpace{}, cam, blur);
    DeviceFrame dev;
    dev.process(frame);
    plain.set_host_maps(&maps);
    cpu.set_host_maps(&maps);
    gpu.set_device_frame(&dev);
    const int swarms = 6, particles = 64;
    std::vector<SwarmTarget> targets;
    for (int s = 0; s < swarms; ++s) {
        targets.push_back({s % 6, false});
    }
    for (SignEvaluator* e : {&plain, &cpu, &gpu}) {
        e->set_targets(targets);
    }
    std::vector<double> lo, hi;
    frustum_bounds(Frustum{}, cam, PoseSpace{}, lo, hi);
    cv::RNG rng(11);
    std::vector<float> pos(static_cast<std::size_t>(swarms * particles * 6));
    for (std::size_t i = 0; i < pos.size(); ++i) {
        pos[i] = static_cast<float>(rng.uniform(lo[i % 6], hi[i % 6]));
    }
    std::vector<float> fp(static_cast<std::size_t>(swarms * particles)), fc(fp.size()), fg(fp.size());
    const swarm::BatchShape shape{swarms, particles, 6};
    plain.evaluate(pos.data(), fp.data(), shape, swarm::MemorySpace::Host, nullptr);
    cpu.evaluate(pos.data(), fc.data(), shape, swarm::MemorySpace::Host, nullptr);
    gpu.evaluate(pos.data(), fg.data(), shape, swarm::MemorySpace::Host, nullptr);
    int raised = 0;
    for (std::size_t i = 0; i < fc.size(); ++i) {
        EXPECT_NEAR(fc[i], fg[i], 5e-3) << "row " << i;
        EXPECT_GE(fc[i], fp[i] - 1e-6f) << "row " << i << ": a lower floor never lowers a score";
        raised += fc[i] > fp[i] + 1e-4f ? 1 : 0;
    }
    EXPECT_GT(raised, 0) << "no pose's floor moved";
}

INSTANTIATE_TEST_SUITE_P(Sizes, GpuAgreement, ::testing::Values(Size{640, 360}, Size{1280, 720}, Size{333, 211}),
                         [](const auto& info) { return std::to_string(info.param.w) + "x" + std::to_string(info.param.h); });

} // namespace
} // namespace tracker
