#pragma once
// The pose fitness in [0, 1], written once for the CPU evaluator and the CUDA fitness kernel. A sampler
// supplies bilinear class likelihoods and gradients: plain memory on the CPU, textures on the GPU.
#include "common/pose_math.h"

namespace tracker::math {

// Roles match tracker::PointRole; colours match tracker::ColourClass (red, blue, white, yellow, other).
struct PackedPoint {
    float x, y, z;    // sign frame, metres
    float nx, ny, nz; // outward normal (edge points)
    int colour;
    int role;         // 0 rim, 1 interior, 2 outside, 3 edge
};

struct ModelRange {
    int first, count;  // into the packed point array
    float inv_count[4]; // 1 / points per role, 0 when a role is absent
};

struct Sample {
    float c[4];  // red, blue, white, yellow likelihoods
    float gx, gy; // gradient of the sign-colour map, per pixel
};

// Weights of rim, interior, outside and edge terms; they sum to 1 so the fitness stays in [0, 1].
struct FitnessWeights {
    float rim = 0.35f, interior = 0.25f, outside = 0.2f, edge = 0.2f;
    float edge_gain = 2.5f; // |gradient . normal| giving a full edge score is 1 / edge_gain
};

// Boxes of signs already tracked, in pixels, each with the model tracking it: detection swarms of that
// model see "other" there, so they find the next sign; swarms of other models still see it, so a sign
// first locked onto by the wrong model can be taken over by the right one.
constexpr int k_max_masks = 32;
struct MaskSet {
    int count;
    float box[k_max_masks][4]; // x0, y0, x1, y1
    int model[k_max_masks];
};

SWARM_HOST_DEVICE SWARM_INLINE bool masked(const MaskSet* m, int model, float u, float v) {
    if (m == nullptr) {
        return false;
    }
    for (int i = 0; i < m->count; ++i) {
        if (m->model[i] == model && u >= m->box[i][0] && u <= m->box[i][2] && v >= m->box[i][1] && v <= m->box[i][3]) {
            return true;
        }
    }
    return false;
}

SWARM_HOST_DEVICE SWARM_INLINE float likelihood(const Sample& s, int colour) {
    if (colour < 4) {
        return s.c[colour];
    }
    const float sum = s.c[0] + s.c[1] + s.c[2] + s.c[3];
    return sum > 1.f ? 0.f : 1.f - sum;
}

// Scores one pose against one model. `sampler(u, v, sample)` fills `sample` and returns false outside the
// image; points off the image or behind the camera score 0, so partly visible signs score lower.
template <typename Sampler>
SWARM_HOST_DEVICE float score_pose(const RigidPose& pose, const Intrinsics& k, const PackedPoint* points,
                                   int model, const ModelRange& range, const FitnessWeights& w, const MaskSet* mask,
                                   const Sampler& sampler) {
    float sum[4] = {0.f, 0.f, 0.f, 0.f};
    for (int i = 0; i < range.count; ++i) {
        const PackedPoint p = points[range.first + i];
        float u, v;
        if (!project(k, transform(pose, p.x, p.y, p.z), u, v)) {
            continue;
        }
        Sample s;
        if (!sampler(u, v, s)) {
            continue;
        }
        if (masked(mask, model, u, v)) {
            s.c[0] = s.c[1] = s.c[2] = s.c[3] = 0.f;
            s.gx = s.gy = 0.f;
        }
        float value;
        if (p.role == 3) {
            // Image direction of the outward normal: project a point a little outside the edge.
            const float eps = 0.02f;
            float u2, v2;
            if (!project(k, transform(pose, p.x + eps * p.nx, p.y + eps * p.ny, p.z + eps * p.nz), u2, v2)) {
                continue;
            }
            float du = u2 - u, dv = v2 - v;
            const float len = sqrtf(du * du + dv * dv);
            if (len < 1e-6f) {
                continue;
            }
            // Sign colour falls when leaving the sign: the gradient points inwards, against the normal.
            const float along = -(s.gx * du + s.gy * dv) / len * w.edge_gain;
            value = along < 0.f ? 0.f : (along > 1.f ? 1.f : along);
        } else {
            const float l = likelihood(s, p.colour);
            value = p.role == 2 ? 1.f - l : l;
        }
        sum[p.role] += value;
    }
    return w.rim * sum[0] * range.inv_count[0] + w.interior * sum[1] * range.inv_count[1] +
           w.outside * sum[2] * range.inv_count[2] + w.edge * sum[3] * range.inv_count[3];
}

} // namespace tracker::math
