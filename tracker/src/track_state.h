#pragma once
// One tracked sign: pose and constant-velocity motion in particle space (x/z, y/z, z, yaw, pitch, roll).
#include <array>
#include <vector>

#include "tracker/camera.h"
#include "tracker/types.h"

namespace tracker {

using PoseVec = std::array<double, 6>;

inline PoseVec to_vec(const Pose& p) { return {p.x / p.z, p.y / p.z, p.z, p.yaw, p.pitch, p.roll}; }
inline Pose to_pose(const PoseVec& v) { return {v[0] * v[2], v[1] * v[2], v[2], v[3], v[4], v[5]}; }

struct Track {
    int id = -1;          // -1 until confirmed
    Category category = Category::Prohibitory;
    int model = 0;        // index of the category's model
    PoseVec pose{};       // last estimate
    PoseVec velocity{};   // per frame
    double fitness = 0;
    double peak_fitness = 0; // best fitness of the track so far
    int hits = 0;         // frames with a match
    int missed = 0;       // consecutive frames without one
    int refusals = 0;     // consecutive readable frames on which the verifier read no sign in its box
    int readings = 0;     // consecutive readable frames on which it read the track's own category there
    bool vouched = false; // it once read it so on k_vouching_readings frames in a row (sign_tracker.cpp)
    double angle_weight = 0; // evidence behind the angle estimate (sum of decayed per-frame weights)
    std::array<double, 3> measured_angles{}; // this frame's measured angles, before the running average
    double measured_weight = 0;              // their weight (0: none this frame)
    std::vector<cv::Point2f> outline; // last projected outline (convex)
    cv::Rect2f box;       // its bounding box

    // A track whose fit has fallen well below its best (its pose drifting off the sign, as an occluded
    // sign's can) does not hide its region from its own model's detection swarms, and a clearly better
    // detection there re-places it.
    bool weak() const { return fitness < 0.9 * peak_fitness; }

    PoseVec predicted() const {
        PoseVec p;
        for (int k = 0; k < 6; ++k) {
            p[static_cast<std::size_t>(k)] = pose[static_cast<std::size_t>(k)] + velocity[static_cast<std::size_t>(k)];
        }
        return p;
    }
};

} // namespace tracker
