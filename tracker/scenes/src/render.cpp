#include "render.h"

#include <cmath>

#include <opencv2/imgproc.hpp>

#include "scenes/synthetic.h"
#include "tracker/model.h"
#include "tracker/pose.h"

namespace tracker {
namespace render {

cv::Scalar paint(ColourClass c) {
    switch (c) {
    case ColourClass::Red: return {40, 35, 200};
    case ColourClass::Blue: return {165, 85, 20};
    case ColourClass::White: return {238, 238, 236};
    case ColourClass::Yellow: return {25, 200, 235};
    default: return {90, 90, 90};
    }
}

std::vector<cv::Point> fixed_point(const std::vector<cv::Point2f>& pts) {
    std::vector<cv::Point> out;
    out.reserve(pts.size());
    for (const auto& p : pts) {
        out.emplace_back(cvRound(p.x * (1 << k_shift)), cvRound(p.y * (1 << k_shift)));
    }
    return out;
}

Pose roadside_sign_pose(cv::RNG& rng, double side) {
    Pose p;
    p.x = side * rng.uniform(3.0, 5.5);
    p.y = -rng.uniform(0.9, 1.9);
    p.z = rng.uniform(34.0, 46.0);
    p.yaw = rng.uniform(-12.0, 12.0);
    p.pitch = rng.uniform(-4.0, 4.0);
    p.roll = rng.uniform(-4.0, 4.0);
    return p;
}

void road_background(cv::Mat& bgr, const Camera& cam, double travelled, unsigned long long seed) {
    const int h = bgr.rows;
    const double cam_height = 1.3;
    const int horizon = static_cast<int>(std::round(cam.cy));
    for (int y = 0; y < std::min(horizon, h); ++y) { // sky: pale, slightly warmer towards the horizon
        const double t = static_cast<double>(y) / std::max(horizon, 1);
        bgr.row(y).setTo(cv::Scalar(205 - 25 * t, 190 - 15 * t, 175 - 5 * t));
    }
    if (horizon < h) {
        bgr.rowRange(std::max(horizon, 0), h).setTo(cv::Scalar(60, 110, 85)); // verge: dull green
    }
    auto ground = [&](double x, double z) { // world point on the road surface -> pixel
        return cv::Point2f(static_cast<float>(cam.fx * x / z + cam.cx), static_cast<float>(cam.fy * cam_height / z + cam.cy));
    };
    const double z_far = 300, z_near = 1.0;
    std::vector<cv::Point2f> road = {ground(-4.5, z_near), ground(-4.5, z_far), ground(4.5, z_far), ground(4.5, z_near)};
    cv::fillPoly(bgr, std::vector<std::vector<cv::Point>>{fixed_point(road)}, cv::Scalar(95, 97, 100), cv::LINE_AA,
                 k_shift);
    // Dashed centre line, 3 m marks every 12 m, moving towards the camera as the vehicle travels.
    const double phase = std::fmod(travelled, 12.0);
    for (double z0 = 12.0 - phase; z0 < 120; z0 += 12) {
        const double z1 = z0 + 3;
        if (z0 < z_near) {
            continue;
        }
        std::vector<cv::Point2f> mark = {ground(-0.08, z0), ground(-0.08, z1), ground(0.08, z1), ground(0.08, z0)};
        cv::fillPoly(bgr, std::vector<std::vector<cv::Point>>{fixed_point(mark)}, cv::Scalar(215, 215, 210),
                     cv::LINE_AA, k_shift);
    }
    // Roadside blocks (buildings, hedges), far ones first; positions fixed by the seed, not per frame.
    cv::RNG rng(seed * 7919ULL + 17);
    struct Block {
        double x, z, width, height;
        cv::Scalar colour;
    };
    std::vector<Block> blocks;
    for (int i = 0; i < 14; ++i) {
        const double side = i % 2 == 0 ? -1 : 1;
        const double z = rng.uniform(10.0, 160.0);
        const int kind = rng.uniform(0, 3);
        const cv::Scalar colour = kind == 0 ? cv::Scalar(70, 95, 70) : kind == 1 ? cv::Scalar(120, 125, 135)
                                                                                  : cv::Scalar(95, 110, 130);
        blocks.push_back({side * rng.uniform(9.0, 20.0), z, rng.uniform(4.0, 12.0), rng.uniform(3.0, 9.0), colour});
    }
    for (auto& b : blocks) { // wrap around so the roadside keeps coming
        b.z = std::fmod(b.z - travelled + 1600.0, 160.0) + 6.0;
    }
    std::sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) { return a.z > b.z; });
    for (const auto& b : blocks) {
        const double top = cam_height - b.height;
        std::vector<cv::Point2f> face = {
            {static_cast<float>(cam.fx * b.x / b.z + cam.cx), static_cast<float>(cam.fy * cam_height / b.z + cam.cy)},
            {static_cast<float>(cam.fx * b.x / b.z + cam.cx), static_cast<float>(cam.fy * top / b.z + cam.cy)},
            {static_cast<float>(cam.fx * (b.x + b.width) / b.z + cam.cx), static_cast<float>(cam.fy * top / b.z + cam.cy)},
            {static_cast<float>(cam.fx * (b.x + b.width) / b.z + cam.cx),
             static_cast<float>(cam.fy * cam_height / b.z + cam.cy)}};
        cv::fillPoly(bgr, std::vector<std::vector<cv::Point>>{fixed_point(face)}, b.colour, cv::LINE_AA, k_shift);
    }
}

double hidden_fraction(const std::vector<cv::Point2f>& polygon, const cv::Mat& mask) {
    const double area = std::abs(cv::contourArea(polygon));
    if (area < 1.0) {
        return 1.0;
    }
    const cv::Rect full = cv::Rect(bounding_box(polygon)) + cv::Size(2, 2);
    const cv::Rect roi = full & cv::Rect(0, 0, mask.cols, mask.rows);
    if (roi.empty()) {
        return 1.0;
    }
    cv::Mat shape = cv::Mat::zeros(roi.size(), CV_8U);
    std::vector<cv::Point2f> local;
    for (const auto& p : polygon) {
        local.emplace_back(p.x - static_cast<float>(roi.x), p.y - static_cast<float>(roi.y));
    }
    cv::fillPoly(shape, std::vector<std::vector<cv::Point>>{fixed_point(local)}, cv::Scalar(255), cv::LINE_8, k_shift);
    cv::Mat visible;
    cv::bitwise_and(shape, mask(roi) == 0, visible);
    return std::clamp(1.0 - cv::countNonZero(visible) / area, 0.0, 1.0);
}

} // namespace render

void render_sign(cv::Mat& bgr, const Camera& camera, const SignModel& model, const Pose& pose, double gain) {
    // Post below the sign, drawn first.
    const float bottom = [&] {
        float b = 0;
        for (const auto& p : model.outline) {
            b = std::max(b, p.y);
        }
        return b;
    }();
    const std::vector<cv::Point3f> post3 = {{-0.03f, bottom - 0.05f, 0.02f}, {0.03f, bottom - 0.05f, 0.02f},
                                            {0.03f, bottom + 1.6f, 0.02f},   {-0.03f, bottom + 1.6f, 0.02f}};
    std::vector<std::vector<cv::Point2f>> polys = {project_points(camera, pose, post3)};
    std::vector<cv::Scalar> colours = {cv::Scalar(110, 112, 115) * gain};
    for (const auto& layer : model.layers) {
        polys.push_back(project_points(camera, pose, layer.polygon));
        colours.push_back(render::paint(layer.colour) * gain);
    }
    // Exact area coverage: fillPoly's anti-aliasing widens a polygon by about half a pixel on each side,
    // which would make every rendered sign ~1 px larger than its ground-truth pose says. Instead the
    // sign's patch is drawn at k_super times the resolution without anti-aliasing and averaged back down.
    cv::Rect2f bounds = bounding_box(polys[0]);
    for (const auto& p : polys) {
        bounds |= bounding_box(p);
    }
    const cv::Rect roi = cv::Rect(static_cast<int>(std::floor(bounds.x)) - 2, static_cast<int>(std::floor(bounds.y)) - 2,
                                  static_cast<int>(std::ceil(bounds.width)) + 5, static_cast<int>(std::ceil(bounds.height)) + 5) &
                         cv::Rect(0, 0, bgr.cols, bgr.rows);
    if (roi.empty()) {
        return;
    }
    constexpr int k_super = 8;
    cv::Mat hi;
    cv::resize(bgr(roi), hi, cv::Size(), k_super, k_super, cv::INTER_NEAREST);
    for (std::size_t i = 0; i < polys.size(); ++i) {
        std::vector<cv::Point2f> local; // low-res pixel centre u maps to high-res (u + 0.5) * k - 0.5
        for (const auto& q : polys[i]) {
            local.emplace_back((q.x - static_cast<float>(roi.x) + 0.5f) * k_super - 0.5f,
                               (q.y - static_cast<float>(roi.y) + 0.5f) * k_super - 0.5f);
        }
        cv::fillPoly(hi, std::vector<std::vector<cv::Point>>{render::fixed_point(local)}, colours[i], cv::LINE_8,
                     render::k_shift);
    }
    cv::Mat low;
    cv::resize(hi, low, roi.size(), 0, 0, cv::INTER_AREA);
    low.copyTo(bgr(roi));
}

} // namespace tracker
