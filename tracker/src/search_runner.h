#pragma once
// Runs the swarm engine for the tracker: preprocesses a frame (CPU or GPU), then runs many swarms at once,
// each with its own bounds and sign model, through one batched SignEvaluator.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core/cuda.hpp>

#include "preprocess.h"
#include "sign_evaluator.h"
#include "swarm/optimizer.h"
#include "tracker/tracker.h"

namespace tracker {

class FusedSearch;

struct SwarmJob {
    std::vector<double> lower, upper; // active pose dimensions
    SwarmTarget target;
    // Start box for the first TrackingSettings::track_focus_share of the swarm's particles (inside
    // lower/upper; empty: the swarm starts spread over its bounds). Last, so {lower, upper, target} still
    // initialises a job.
    std::vector<double> start_lower, start_upper;
};

// Particles per swarm and generations of one run; 0 takes the settings' value.
struct SearchSize {
    int particles = 0;
    int generations = 0;
};

struct SwarmOutcome {
    std::vector<double> best;     // active pose dimensions
    double fitness = 0;
    std::vector<float> particles; // last generation's positions (keep_particles)
};

class SearchRunner {
public:
    SearchRunner(const std::vector<SignModel>& models, const Camera& camera, const TrackerSettings& settings);
    ~SearchRunner();

    void prepare(const cv::Mat& bgr, StageTiming& timing);
    void prepare(const cv::cuda::GpuMat& bgr, StageTiming& timing);
    std::vector<SwarmOutcome> run(const PoseSpace& space, const std::vector<SwarmJob>& jobs,
                                  const std::vector<cv::Rect2f>& masks, const std::vector<int>& mask_models, std::uint64_t seed,
                                  StageTiming& timing, SearchSize size = {});
    void set_settings(const TrackerSettings& s) { m_settings = s; }
    std::string backend_name() const;
    bool on_gpu() const { return m_gpu; }
    // The stream the GPU search runs on (a cudaStream_t; null without a device frame).
    void* device_stream() const;
    // The device frame of a GPU backend (null on the CPU backend).
    DeviceFrame* device_frame() const { return m_device.get(); }
    SignEvaluator& evaluator() { return *m_evaluator; }

private:
    // Whether the settings' strategy runs as the fused search on a GPU (auto or gpu-fused).
    bool fused_strategy() const;
    std::vector<SwarmOutcome> finish(const swarm::Result& res, const std::vector<SwarmJob>& jobs, const swarm::Params& p,
                                     int dims, const std::vector<float>& last,
                                     std::chrono::steady_clock::time_point t0, StageTiming& timing) const;

    TrackerSettings m_settings;
    bool m_gpu = false;
    ClassMaps m_maps;
    std::shared_ptr<SignEvaluator> m_evaluator;
    // An out-of-line deleter: DeviceFrame is complete only in CUDA builds, and clang instantiates
    // unique_ptr's default deleter in the constructor's unwinding path (CPU-only clang build).
    struct DeviceFrameDeleter {
        void operator()(DeviceFrame* frame) const;
    };
    std::unique_ptr<DeviceFrame, DeviceFrameDeleter> m_device;
    struct FusedSearchDeleter {
        void operator()(FusedSearch* search) const;
    };
    std::unique_ptr<FusedSearch, FusedSearchDeleter> m_fused; // the GPU search for auto / gpu-fused
    std::unique_ptr<swarm::Optimizer> m_optimizer;
    std::string m_strategy_note;
};

} // namespace tracker
