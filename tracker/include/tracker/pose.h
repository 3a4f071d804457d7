#pragma once
// Pose <-> particle vector, the search frustum as swarm::Problem bounds, and projection of model points.
// A particle holds the active subset of (x/z, y/z, z, yaw, pitch, roll): the viewing ray instead of (x, y)
// so that the bounds are the camera frustum and image position does not depend on depth.
#include <array>
#include <vector>

#include <opencv2/core.hpp>

#include "tracker/camera.h"
#include "tracker/model.h"
#include "tracker/types.h"

namespace tracker {

enum class PoseDim { U = 0, V = 1, Z = 2, Yaw = 3, Pitch = 4, Roll = 5 };

struct PoseSpace {
    std::array<bool, 6> active{true, true, true, true, true, true};
    Pose fixed; // values of inactive dimensions (yaw, pitch, roll; x/z, y/z and z from x, y, z)

    int dims() const;
    int index_of(PoseDim d) const; // particle index, or -1 when fixed
    std::vector<double> to_vector(const Pose& p) const;
    Pose from_vector(const double* v) const;
    Pose from_vector(const float* v) const;
};

// Depth, lateral and height range in metres; +- angle ranges in degrees (0 fixes that angle at 0).
struct Frustum {
    double z_min = 5, z_max = 60;
    double x_min = -12, x_max = 12;
    double y_min = -6, y_max = 3;
    double yaw_range = 30, pitch_range = 10, roll_range = 10;
    // Candidate regions and tracks are searched out to where the smallest sign model is this many pixels wide,
    // if that is beyond z_max (0: z_max alone; the tiles' swarms keep z_max). Depth in metres follows from the
    // focal length, which for a camera without a calibration file is a guessed field of view: on a frame twice
    // as wide at the same guess, a sign of a given pixel size is twice as far, and a small one fell beyond z_max.
    // Small signs are a matter of pixels, not metres. 14 px is the smallest sign the tracker is asked to find and
    // a little under the smallest GTSDB labels at its cameras' 1,360 px (16 px); z_max stays in force on frames up
    // to 1,384 px across at the default field of view. 9 px also found a mosaic's small signs, but on the dev
    // frames upscaled to 1,360 px it searched clutter smaller than any sign there (docs/benchmarks.md).
    double min_sign_px = 14;
};

// `f` with its far depth moved out, if need be, to where the smallest of `models` (SignModel::size_m) is
// f.min_sign_px pixels wide through `cam`: the frustum of the candidate regions' and the tracks' searches.
Frustum reaching_small_signs(const Frustum& f, const Camera& cam, const std::vector<SignModel>& models);

// Bounds of the active dimensions: x/z and y/z limited by both the image and the lateral/height range at
// the nearest depth. Throws std::invalid_argument when the frustum is empty.
void frustum_bounds(const Frustum& f, const Camera& cam, const PoseSpace& space, std::vector<double>& lower,
                    std::vector<double>& upper);

// Ry(yaw) * Rx(pitch) * Rz(roll), the convention of the fitness kernels.
cv::Matx33d rotation_matrix(const Pose& p);
// Pixels of sign-frame points (no distortion), via the same formulas as the fitness kernels.
std::vector<cv::Point2f> project_points(const Camera& cam, const Pose& p, const std::vector<cv::Point3f>& points);
// Bounding box of projected points.
cv::Rect2f bounding_box(const std::vector<cv::Point2f>& pts);
// Angle of R_a^T R_b in degrees.
double rotation_error_deg(const Pose& a, const Pose& b);
// Angle between the sign normals in degrees: the rotation error of a ring, whose roll is not observable.
double normal_error_deg(const Pose& a, const Pose& b);

} // namespace tracker
