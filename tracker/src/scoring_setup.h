#pragma once
// What the pose fitness scores a frame with, the frame's class maps apart: the models' points and colour groups,
// how a particle encodes a pose, the camera, the weights, the tracked signs' masks and each swarm's model. The
// CPU evaluator (sign_evaluator.h) scores with it on the host; the device frame (cuda/device_frame.h) uploads it
// for the GPU's fitness kernels. A plain bag of data, so neither backend reads it through the other.
#include <vector>

#include "common/fitness_math.h"
#include "common/pose_math.h"

namespace tracker {

struct SwarmTarget {
    int model = 0;         // index into the setup's models
    bool use_mask = false; // detection swarms ignore signs that are already tracked
};

struct ScoringSetup {
    std::vector<math::PackedPoint> points; // every model's points, each model's a contiguous range
    std::vector<math::ModelRange> ranges;  // one per model
    math::PoseLayout layout{};
    math::Intrinsics k{};
    math::FitnessWeights weights;
    math::MaskSet masks{};
    std::vector<SwarmTarget> targets; // one per swarm of the next batch
};

} // namespace tracker
