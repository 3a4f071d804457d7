#pragma once
// The tracker's swarm::BatchEvaluator: scores every particle of every swarm (each swarm searching one
// sign model) against the current frame's class maps in one call. Host path here; the device path
// (CUDA fitness kernel over textures) is used when the frame was preprocessed on the GPU.
#include <memory>
#include <vector>

#include "common/fitness_math.h"
#include "preprocess.h"
#include "scoring_setup.h"
#include "swarm/problem.h"
#include "tracker/camera.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/tracker.h"

namespace tracker {

class DeviceFrame; // cuda/device_frame.h

// The fitness weights a tracker with these settings scores with (edge gain and crossing, occluder credit).
math::FitnessWeights fitness_weights(const TrackerSettings& s);

class SignEvaluator : public swarm::BatchEvaluator {
public:
    SignEvaluator(const std::vector<SignModel>& models, const PoseSpace& space, const Camera& camera,
                  math::FitnessWeights weights = {});
    ~SignEvaluator() override;

    void set_host_maps(const ClassMaps* maps) { m_maps = maps; }
    void set_device_frame(DeviceFrame* frame) { m_device = frame; }
    void set_targets(std::vector<SwarmTarget> targets) { m_setup.targets = std::move(targets); }
    // Box i hides the sign from detection swarms of model models[i].
    void set_masks(const std::vector<cv::Rect2f>& boxes, const std::vector<int>& models);
    void set_space(const PoseSpace& space);
    void set_weights(const math::FitnessWeights& w) { m_setup.weights = w; }

    bool supports(swarm::MemorySpace where) const override;
    // Throws when a batch does not fit the current space (dims) or targets (one per swarm).
    void check_shape(const swarm::BatchShape& shape) const;
    void evaluate(const float* positions, float* fitness, const swarm::BatchShape& shape, swarm::MemorySpace where,
                  void* stream) override;

    // Host score of one pose (tests, refinement checks); needs host maps.
    double score(const Pose& pose, int model, bool use_mask = false) const;
    // Each colour group's mean point value for one pose, in the model's group order (what finish_score weighs and
    // holds to the floors; diagnostics); needs host maps.
    std::vector<float> group_means(const Pose& pose, int model) const;

    // Keep a copy of the last host batch (the particles the GUI draws).
    void keep_last(bool on) { m_keep_last = on; }
    const std::vector<float>& last_positions() const { return m_last; }

    // What a GPU search of this evaluator's swarms scores with (the fused search hands it to the device frame).
    const ScoringSetup& setup() const { return m_setup; }

private:
    HostSampler host_sampler() const; // over m_maps, which must be set

    ScoringSetup m_setup;
    const ClassMaps* m_maps = nullptr;
    DeviceFrame* m_device = nullptr;
    bool m_keep_last = false;
    std::vector<float> m_last;
};

math::PoseLayout make_layout(const PoseSpace& space);

} // namespace tracker
