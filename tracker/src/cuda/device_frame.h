#pragma once
// A frame on the GPU: one upload (or a caller's device pointer), the preprocessing kernel writing class maps
// and gradients into pitched buffers bound as textures, and the fitness kernel that scores all particles of
// all swarms in one launch. Plain C++ interface (streams as void*), implemented in device_frame.cu.
// Its work runs on a stream of its own (stream()), never on the legacy default stream; the methods that take a
// stream use the caller's (the engine's, whose batched evaluations must queue behind its own kernels) and
// the frame's own when given null.
#include <memory>

#include <opencv2/core.hpp>
#include <opencv2/core/cuda.hpp>

#include "common/colour_math.h"
#include "swarm/problem.h"

namespace tracker {

struct ScoringSetup;
struct ClassMaps;
namespace cuda {
struct FitnessParams;
}

// Team size for gpu_team_warps = 0: 2 warps a particle while `particles` (every swarm's, the whole search)
// times 2 fits the warps the device's SMs hold at once for the pose kernel, else 1 (1 without a device).
int auto_team_warps(std::size_t particles);

class DeviceFrame {
public:
    DeviceFrame();
    ~DeviceFrame();
    DeviceFrame(const DeviceFrame&) = delete;
    DeviceFrame& operator=(const DeviceFrame&) = delete;

    // The frame's own stream (a cudaStream_t).
    void* stream() const;
    // Copies a host BGR8 frame to the device, then preprocesses; returns once preprocessing is done, with the
    // GPU ms of (upload, preprocess). cover_hue: FitnessSettings::cover_hue.
    std::pair<double, double> process(const cv::Mat& bgr, float cover_hue = math::k_cover_every_hue);
    // Preprocesses a BGR8 frame already on the device (upload 0 ms), after the work queued on the legacy default
    // stream so far (a caller's copy into it). Work on the caller's other streams must be complete.
    std::pair<double, double> process(const cv::cuda::GpuMat& bgr, float cover_hue = math::k_cover_every_hue);
    bool ready() const;

    // Fitness of `shape.rows()` device-resident particles into device `fitness`, one launch.
    void evaluate(const ScoringSetup& setup, const float* positions, float* fitness, const swarm::BatchShape& shape,
                  void* stream);
    // Same for host arrays (copies in and out; used by the tracker's CPU strategies on a GPU build, and tests).
    void evaluate_host(const ScoringSetup& setup, const float* positions, float* fitness,
                       const swarm::BatchShape& shape, void* stream);
    // The fitness kernel's parameters for `setup`'s current targets and masks on this frame (uploads the model
    // points once and the targets when they change, on `stream`, so launches on that stream see them).
    void fitness_params(const ScoringSetup& setup, const swarm::BatchShape& shape, void* stream,
                        cuda::FitnessParams& p);
    // Warps that score one particle (1, 2, 4, or 0: auto_team_warps; EngineSettings::gpu_team_warps), for the
    // batched kernel and the fused search alike; throws std::invalid_argument otherwise.
    void set_team_warps(int warps);
    int team_warps() const;
    // Copies the class maps back (tests; a CPU search after GPU preprocessing).
    void download(ClassMaps& out) const;

    // The BGR8 frame last processed, on the device (the upload, or the caller's own memory for a device frame:
    // valid while the caller's frame is). Null before the first frame.
    struct Image {
        const unsigned char* data = nullptr;
        std::size_t pitch = 0; // bytes a row
        int width = 0, height = 0;
    };
    Image image() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace tracker
