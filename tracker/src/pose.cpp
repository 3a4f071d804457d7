#include "tracker/pose.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/pose_math.h"

namespace tracker {

int PoseSpace::dims() const { return static_cast<int>(std::count(active.begin(), active.end(), true)); }

int PoseSpace::index_of(PoseDim d) const {
    const int k = static_cast<int>(d);
    if (!active[static_cast<std::size_t>(k)]) {
        return -1;
    }
    return static_cast<int>(std::count(active.begin(), active.begin() + k, true));
}

std::vector<double> PoseSpace::to_vector(const Pose& p) const {
    const double all[6] = {p.x / p.z, p.y / p.z, p.z, p.yaw, p.pitch, p.roll};
    std::vector<double> v;
    for (int k = 0; k < 6; ++k) {
        if (active[static_cast<std::size_t>(k)]) {
            v.push_back(all[k]);
        }
    }
    return v;
}

template <typename T>
static Pose pose_from(const PoseSpace& s, const T* v) {
    const double fixed[6] = {s.fixed.x / s.fixed.z, s.fixed.y / s.fixed.z, s.fixed.z, s.fixed.yaw, s.fixed.pitch,
                             s.fixed.roll};
    double all[6];
    int i = 0;
    for (int k = 0; k < 6; ++k) {
        all[k] = s.active[static_cast<std::size_t>(k)] ? static_cast<double>(v[i++]) : fixed[k];
    }
    Pose p;
    p.z = all[2];
    p.x = all[0] * p.z;
    p.y = all[1] * p.z;
    p.yaw = all[3];
    p.pitch = all[4];
    p.roll = all[5];
    return p;
}

Pose PoseSpace::from_vector(const double* v) const { return pose_from(*this, v); }
Pose PoseSpace::from_vector(const float* v) const { return pose_from(*this, v); }

void frustum_bounds(const Frustum& f, const Camera& cam, const PoseSpace& space, std::vector<double>& lower,
                    std::vector<double>& upper) {
    if (!(f.z_min > 0 && f.z_max > f.z_min)) {
        throw std::invalid_argument("frustum: need 0 < z_min < z_max");
    }
    // Rays that see the image at all, limited by the lateral / height range at the nearest depth.
    const double u_lo = std::max(-cam.cx / cam.fx, f.x_min / f.z_min);
    const double u_hi = std::min((cam.width - 1 - cam.cx) / cam.fx, f.x_max / f.z_min);
    const double v_lo = std::max(-cam.cy / cam.fy, f.y_min / f.z_min);
    const double v_hi = std::min((cam.height - 1 - cam.cy) / cam.fy, f.y_max / f.z_min);
    if (!(u_hi > u_lo && v_hi > v_lo)) {
        throw std::invalid_argument("frustum: lateral/height range does not overlap the camera view");
    }
    const double lo[6] = {u_lo, v_lo, f.z_min, -f.yaw_range, -f.pitch_range, -f.roll_range};
    const double hi[6] = {u_hi, v_hi, f.z_max, f.yaw_range, f.pitch_range, f.roll_range};
    lower.clear();
    upper.clear();
    for (int k = 0; k < 6; ++k) {
        if (space.active[static_cast<std::size_t>(k)]) {
            lower.push_back(lo[k]);
            upper.push_back(hi[k]);
        }
    }
}

Frustum reaching_small_signs(const Frustum& f, const Camera& cam, const std::vector<SignModel>& models) {
    double smallest = 0;
    for (const auto& m : models) {
        smallest = smallest > 0 ? std::min(smallest, m.size_m()) : m.size_m();
    }
    Frustum out = f;
    if (f.min_sign_px > 0 && smallest > 0) {
        out.z_max = std::max(f.z_max, std::sqrt(cam.fx * cam.fy) * smallest / f.min_sign_px);
    }
    return out;
}

cv::Matx33d rotation_matrix(const Pose& p) {
    const auto r = math::rigid_from_params(0, 0, 1, static_cast<float>(p.yaw), static_cast<float>(p.pitch),
                                           static_cast<float>(p.roll));
    cv::Matx33d m;
    for (int i = 0; i < 9; ++i) {
        m.val[i] = r.r[i];
    }
    return m;
}

std::vector<cv::Point2f> project_points(const Camera& cam, const Pose& p, const std::vector<cv::Point3f>& points) {
    const auto r = math::rigid_from_params(static_cast<float>(p.x / p.z), static_cast<float>(p.y / p.z),
                                           static_cast<float>(p.z), static_cast<float>(p.yaw),
                                           static_cast<float>(p.pitch), static_cast<float>(p.roll));
    const math::Intrinsics k{static_cast<float>(cam.fx), static_cast<float>(cam.fy), static_cast<float>(cam.cx),
                             static_cast<float>(cam.cy)};
    std::vector<cv::Point2f> out;
    out.reserve(points.size());
    for (const auto& q : points) {
        float u = NAN, v = NAN;
        math::project(k, math::transform(r, q.x, q.y, q.z), u, v);
        out.emplace_back(u, v);
    }
    return out;
}

cv::Rect2f bounding_box(const std::vector<cv::Point2f>& pts) {
    if (pts.empty()) {
        return {};
    }
    float x0 = pts[0].x, x1 = pts[0].x, y0 = pts[0].y, y1 = pts[0].y;
    for (const auto& p : pts) {
        x0 = std::min(x0, p.x);
        x1 = std::max(x1, p.x);
        y0 = std::min(y0, p.y);
        y1 = std::max(y1, p.y);
    }
    return {x0, y0, x1 - x0, y1 - y0};
}

double rotation_error_deg(const Pose& a, const Pose& b) {
    const cv::Matx33d d = rotation_matrix(a).t() * rotation_matrix(b);
    const double c = std::clamp((cv::trace(d) - 1.0) / 2.0, -1.0, 1.0);
    return std::acos(c) * 180.0 / CV_PI;
}

double normal_error_deg(const Pose& a, const Pose& b) {
    const cv::Vec3d na = rotation_matrix(a) * cv::Vec3d(0, 0, 1), nb = rotation_matrix(b) * cv::Vec3d(0, 0, 1);
    return std::acos(std::clamp(na.dot(nb), -1.0, 1.0)) * 180.0 / CV_PI;
}

} // namespace tracker
