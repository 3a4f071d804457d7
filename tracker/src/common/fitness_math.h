#pragma once
// The pose fitness in [0, 1], written once for the CPU evaluator and the CUDA fitness kernel. A sampler
// supplies bilinear class likelihoods and gradients: plain memory on the CPU, textures on the GPU.
#include <cstdint>

#include "common/colour_math.h"
#include "common/pose_math.h"

namespace tracker::math {

// Roles match tracker::PointRole; colours match tracker::ColourClass (red, blue, white, yellow, other).
// 32 bytes, 16-aligned: a GPU thread reads a point with two 16-byte loads instead of nine 4-byte ones.
struct alignas(16) PackedPoint {
    float x, y, z;    // sign frame, metres
    float nx, ny, nz; // outward normal (edge points)
    std::int16_t colour;
    std::int16_t role;  // 0 rim, 1 interior, 2 outside, 3 edge
    std::int16_t group; // colour group of the model (ModelRange), one per (role, colour)
    std::int16_t unused;
};
static_assert(sizeof(PackedPoint) == 32, "PackedPoint is two 16-byte loads");

// A model's points fall into colour groups: one per (role, colour), e.g. a mandatory sign's interior is a
// blue group and a white (arrow) group. Each group's mean score counts equally within its role, so a
// sign's small but telling parts (the arrow, the stop band) weigh as much as its large plain parts.
constexpr int k_max_groups = 8;
struct ModelRange {
    int first, count;             // into the packed point array
    int groups;                   // colour groups used
    float weight[k_max_groups];   // role weight / groups in the role
    float inv_count[k_max_groups]; // 1 / points in the group
    unsigned essential;           // bit g: group g is a required part of the sign (ModelPoint::required)
    unsigned rim;                 // bit g: group g is a rim group (held to FitnessWeights::rim_floor)
    float rim_floor_scale = 1.f;  // this model's rim floor over FitnessWeights::rim_floor (SignModel::rim_floor_scale)
    // The group's points' mean reach to the nearest change of paint and to the nearest on the far side, metres
    // (ModelPoint::reach_near, reach_far): how much of the part a blur at a pose's scale leaves (blurred_share).
    float reach_near[k_max_groups] = {};
    float reach_far[k_max_groups] = {};
};

struct Sample {
    float c[4];  // red, blue, white, yellow likelihoods
    float gx, gy; // gradient of the sign-colour map, per pixel
};

// Weights of rim, interior, outside and edge terms; they sum to 1 so the fitness stays in [0, 1].
struct FitnessWeights {
    float rim = 0.35f, interior = 0.25f, outside = 0.2f, edge = 0.2f;
    // |gradient . normal| giving a full edge score is 1 / edge_gain (FitnessSettings::edge_gain).
    float edge_gain = 1.0f;
    // Share of the edge term scored by where the sign-colour level crosses one half (FitnessSettings::edge_crossing);
    // the rest is the gradient alignment above.
    float edge_crossing = 1.0f;
    // Whether the gradient alignment has a share at all: when not, edge points need neither their normal nor the
    // gradient map (the GPU sampler skips that fetch).
    SWARM_HOST_DEVICE bool uses_gradient() const { return edge_crossing < 1.f; }
    // Every painted part must be there: when a required group scores below its floor, the fitness is scaled
    // by its score / floor (the group furthest short decides). A plain disc of a sign's colour (a lamp, a ball,
    // a round board) then scores low for a sign whose arrow, band or white disc is missing, and a sign scores
    // low for a model whose parts it lacks, which separates the categories. group_floor holds the parts other
    // than the rim, rim_floor the rim (FitnessSettings says why they differ).
    float group_floor = 0.4f;
    float rim_floor = 0.5f;
    // An interior point that sees neither its colour nor any other sign colour (a pole, a branch, a wire in
    // front of the sign: the "other" likelihood) scores this instead of 0. A sign half hidden behind a pole
    // keeps its interior above group_floor, while a plain disc of a sign colour (interior the rim's colour,
    // not "other") still scores 0 there. 0: occluders count as wrong colour.
    float occluder_credit = 0.5f;
    // A white interior point takes the better of its white likelihood and this times its yellow one: the same
    // signs have yellow faces in some countries (FitnessSettings::yellow_interior). 0: white only.
    float yellow_interior = 1.0f;
    // The blur at a sign's painted edges, a Gaussian's sigma in pixels (FitnessSettings::paint_blur): a part whose
    // points lie a reach r from their paint's edge keeps about Phi(r / sigma) of its colour from each side at the
    // pose's scale, and its floor is held to that share of itself (blurred_share). 0: off.
    float paint_blur = 0.f;
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

// Where a model point lands in the image: false when it is behind the camera.
SWARM_HOST_DEVICE SWARM_INLINE bool locate_point(const RigidPose& pose, const Intrinsics& k, const PackedPoint& p,
                                                 float& u, float& v) {
    return project(k, transform(pose, p.x, p.y, p.z), u, v);
}

// A located point's value in [0, 1] from its sample `s` at (u, v). Returns false when the point does not
// count (a degenerate edge normal).
SWARM_HOST_DEVICE SWARM_INLINE bool point_value(const RigidPose& pose, const Intrinsics& k, const PackedPoint& p,
                                                int model, const FitnessWeights& w, const MaskSet* mask, float u,
                                                float v, Sample s, float& value) {
    if (masked(mask, model, u, v)) {
        s.c[0] = s.c[1] = s.c[2] = s.c[3] = 0.f;
        s.gx = s.gy = 0.f;
    }
    // The edge term's level crossing: 1 where the sign-colour level is one half (the outline, by the paint
    // coverage of common/colour_math.h), 0 where it is 0 or 1. Worked out before the role branch, which the
    // GPU's lanes take apart, so it costs the divergent path nothing.
    const float level = sign_colour(ClassLikelihood{s.c[0], s.c[1], s.c[2], s.c[3]}); // the map the gradient is of
    const float crossing = 1.f - 2.f * (level > 0.5f ? level - 0.5f : 0.5f - level);
    if (p.role == 3) {
        if (!w.uses_gradient()) {
            value = crossing; // the default: the alignment's normal and gradient are not needed
            return true;
        }
        // Image direction of the outward normal n (rotated into the camera frame as m): the derivative of the
        // projection along it, d(u, v) = (fx (m.x - x' m.z), fy (m.y - y' m.z)) / z with x' = (u - cx) / fx,
        // y' = (v - cy) / fy; only the direction counts, so the positive 1 / z is dropped.
        const Vec3 m = rotate(pose, p.nx, p.ny, p.nz);
        const float du = k.fx * m.x - (u - k.cx) * m.z, dv = k.fy * m.y - (v - k.cy) * m.z;
        const float len2 = du * du + dv * dv;
        if (len2 < 1e-12f) {
            return false;
        }
        // Sign colour falls when leaving the sign: the gradient points inwards, against the normal.
        const float along = -(s.gx * du + s.gy * dv) * inverse_sqrt(len2) * w.edge_gain;
        const float aligned = along < 0.f ? 0.f : (along > 1.f ? 1.f : along);
        value = aligned + w.edge_crossing * (crossing - aligned);
    } else {
        float l = likelihood(s, p.colour);
        if (p.role == 1 && p.colour == 2) {
            const float yellow = w.yellow_interior * likelihood(s, 3);
            l = yellow > l ? yellow : l;
        }
        if (p.role == 2) {
            value = 1.f - l;
        } else if (p.role == 1 && p.colour < 4) {
            value = l + w.occluder_credit * likelihood(s, 4);
        } else {
            value = l;
        }
    }
    return true;
}

// One model point's contribution: its colour group and value in [0, 1]. Returns false when the point
// does not count (off the image, behind the camera, a degenerate edge normal), as it scores 0 then.
// locate, sample, value: the GPU's warp scorer runs the three stages over several points at a time so
// their texture fetches are in flight together.
template <typename Sampler>
SWARM_HOST_DEVICE SWARM_INLINE bool score_point(const RigidPose& pose, const Intrinsics& k, const PackedPoint& p,
                                                int model, const FitnessWeights& w, const MaskSet* mask,
                                                const Sampler& sampler, float& value) {
    float u, v;
    if (!locate_point(pose, k, p, u, v)) {
        return false;
    }
    Sample s;
    if (!sampler(u, v, s)) {
        return false;
    }
    return point_value(pose, k, p, model, w, mask, u, v, s, value);
}

// The standard normal distribution's Phi(x) by the logistic 1 / (1 + exp(-1.702 x)), within 0.01 of it; on the GPU
// the hardware exponential, as pose_math.h's reciprocal.
SWARM_HOST_DEVICE SWARM_INLINE float normal_cdf(float x) {
#if defined(__CUDA_ARCH__)
    return reciprocal(1.f + __expf(-1.702f * x));
#else
    return 1.f / (1.f + expf(-1.702f * x));
#endif
}

// The share of group g's colour that a blur of w.paint_blur pixels leaves at its points at `pixels_per_m` (the pose's
// scale; w.paint_blur > 0): Phi(near / sigma) + Phi(far / sigma) - 1, the paint between two straight edges, at least
// one half (a floor never falls under half of itself).
SWARM_HOST_DEVICE SWARM_INLINE float blurred_share(const ModelRange& range, int g, const FitnessWeights& w,
                                                   float pixels_per_m) {
    const float to_sigmas = pixels_per_m * reciprocal(w.paint_blur);
    const float share = normal_cdf(range.reach_near[g] * to_sigmas) + normal_cdf(range.reach_far[g] * to_sigmas) - 1.f;
    return share > 0.5f ? share : 0.5f;
}

// The pose's pixels per metre at the sign's centre.
SWARM_HOST_DEVICE SWARM_INLINE float pixels_per_metre(float depth_m, const Intrinsics& k) {
    return depth_m > 0.05f ? k.fx * reciprocal(depth_m) : 0.f;
}

// The fitness from the per-group sums of point values: their weighted total, scaled by the required group that
// falls furthest short of its floor (mean / floor, when under 1). With the blur allowance a floor is held to the share
// of its part that a blur leaves at the pose's scale (blurred_share); `pixels_per_m()` gives that scale and is called
// only for a part under its full floor, as a share never lifts a floor, so the usual pose pays nothing for it.
// WithBlur false leaves the allowance's code out, for a caller that has checked w.paint_blur is 0: the GPU's
// search kernels are built both ways, as the allowance's code alone, never run, slowed the search.
template <bool WithBlur = true, typename PixelsPerMetre>
SWARM_HOST_DEVICE SWARM_INLINE float finish_score(const float* sum, const ModelRange& range, const FitnessWeights& w,
                                                  const PixelsPerMetre& pixels_per_m) {
    float total = 0.f, scale = 1.f;
    for (int g = 0; g < range.groups; ++g) {
        const float mean = sum[g] * range.inv_count[g];
        total += range.weight[g] * mean;
        const float part_floor = (range.rim >> g) & 1u ? w.rim_floor * range.rim_floor_scale : w.group_floor;
        if (((range.essential >> g) & 1u) && mean < part_floor * scale) {
            float floor_here = part_floor;
            if constexpr (WithBlur) {
                if (w.paint_blur > 0.f) {
                    floor_here *= blurred_share(range, g, w, pixels_per_m());
                }
            }
            if (mean < floor_here * scale) {
                scale = mean / floor_here;
            }
        }
    }
    return total * scale;
}

// The per-group sums of one pose's point values against one model, point after point (the CPU path; the CUDA
// kernel spreads the points of a pose over a warp and sums the same point values). `sampler(u, v, sample)` fills
// `sample` and returns false outside the image; points off the image or behind the camera score 0, so partly
// visible signs score lower.
template <typename Sampler>
SWARM_HOST_DEVICE void sum_groups(const RigidPose& pose, const Intrinsics& k, const PackedPoint* points, int model,
                                  const ModelRange& range, const FitnessWeights& w, const MaskSet* mask,
                                  const Sampler& sampler, float (&sum)[k_max_groups]) {
    for (int g = 0; g < k_max_groups; ++g) {
        sum[g] = 0.f;
    }
    for (int i = 0; i < range.count; ++i) {
        const PackedPoint& p = points[range.first + i];
        float value;
        if (score_point(pose, k, p, model, w, mask, sampler, value)) {
            sum[p.group] += value;
        }
    }
}

// Scores one pose against one model.
template <typename Sampler>
SWARM_HOST_DEVICE float score_pose(const RigidPose& pose, const Intrinsics& k, const PackedPoint* points,
                                   int model, const ModelRange& range, const FitnessWeights& w, const MaskSet* mask,
                                   const Sampler& sampler) {
    float sum[k_max_groups];
    sum_groups(pose, k, points, model, range, w, mask, sampler, sum);
    return finish_score(sum, range, w, [&] { return pixels_per_metre(pose.t[2], k); });
}

} // namespace tracker::math
