#pragma once
// Rectification of a sign's face: the sign-plane rectangle around a model's outline, seen through a pose and the
// pinhole camera, resampled to a small square of grey levels. Written once for the CPU (tracker/src/sign_classes.cpp)
// and the CUDA kernel that rectifies every detection of a frame in one launch (tracker/src/cuda/rectify.cu).
//
// A face map is the homography from face coordinates (a, b) in [0, 1]^2 (a across, b down) to image
// coordinates in the convention of project() and of the camera (OpenCV's: pixel (i, j) is centred on (i, j)).
#include "common/pose_math.h"
#include "swarm/host_device.h"

namespace tracker::math {

struct FaceMap {
    float h[9];  // row-major 3 x 3: (u w, v w, w) = h (a, b, 1)
    int samples; // per face pixel and axis: samples x samples bilinear taps averaged (a large sign is shrunk)
};

// The sign-frame rectangle [x0, x1] x [y0, y1] (z = 0) of a sign at pose `p`.
SWARM_HOST_DEVICE SWARM_INLINE FaceMap face_map_from_pose(const RigidPose& p, const Intrinsics& k, float x0, float y0,
                                                          float x1, float y1) {
    // Camera point of (X, Y, 0) = X r_col0 + Y r_col1 + t, with X = x0 + a (x1 - x0), Y = y0 + b (y1 - y0).
    const float dx = x1 - x0, dy = y1 - y0;
    const float ca[3] = {p.r[0] * dx, p.r[3] * dx, p.r[6] * dx};
    const float cb[3] = {p.r[1] * dy, p.r[4] * dy, p.r[7] * dy};
    const float c0[3] = {p.r[0] * x0 + p.r[1] * y0 + p.t[0], p.r[3] * x0 + p.r[4] * y0 + p.t[1],
                         p.r[6] * x0 + p.r[7] * y0 + p.t[2]};
    FaceMap m;
    const float* cols[3] = {ca, cb, c0};
    for (int c = 0; c < 3; ++c) {
        m.h[0 + c] = k.fx * cols[c][0] + k.cx * cols[c][2];
        m.h[3 + c] = k.fy * cols[c][1] + k.cy * cols[c][2];
        m.h[6 + c] = cols[c][2];
    }
    m.samples = 1;
    return m;
}

// An axis-aligned image box (x, y, w, h) in the label files' convention: its first column is pixel x, so it covers
// x - 0.5 ... x + w - 0.5 in pixel-centre coordinates (a labelled sign, seen face on).
SWARM_HOST_DEVICE SWARM_INLINE FaceMap face_map_from_box(float x, float y, float w, float h) {
    FaceMap m;
    m.h[0] = w;
    m.h[1] = 0.f;
    m.h[2] = x - 0.5f;
    m.h[3] = 0.f;
    m.h[4] = h;
    m.h[5] = y - 0.5f;
    m.h[6] = 0.f;
    m.h[7] = 0.f;
    m.h[8] = 1.f;
    m.samples = 1;
    return m;
}

// Taps per face pixel and axis for a face `extent_px` image pixels across resampled to `side` pixels: enough that
// the taps are at most about a pixel apart, so a sign larger than the face is averaged rather than aliased.
SWARM_HOST_DEVICE SWARM_INLINE int face_samples(float extent_px, int side) {
    const float per = extent_px / static_cast<float>(side);
    int s = static_cast<int>(ceilf(per));
    return s < 1 ? 1 : (s > 4 ? 4 : s);
}

// Grey level (ITU-R BT.601 weights, as OpenCV's BGR2GRAY) of pixel (x, y) of a BGR8 image, clamped to the border.
SWARM_HOST_DEVICE SWARM_INLINE float grey_pixel(const unsigned char* bgr, unsigned long long pitch, int w, int h, int x,
                                                int y) {
    x = x < 0 ? 0 : (x >= w ? w - 1 : x);
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    const unsigned char* p = bgr + static_cast<unsigned long long>(y) * pitch + 3ull * static_cast<unsigned long long>(x);
    return 0.114f * p[0] + 0.587f * p[1] + 0.299f * p[2];
}

// Bilinear grey level at pixel-centre coordinates (x, y).
SWARM_HOST_DEVICE SWARM_INLINE float grey_bilinear(const unsigned char* bgr, unsigned long long pitch, int w, int h,
                                                   float x, float y) {
    const float fx = floorf(x), fy = floorf(y);
    const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
    const float ax = x - fx, ay = y - fy;
    const float g00 = grey_pixel(bgr, pitch, w, h, ix, iy), g10 = grey_pixel(bgr, pitch, w, h, ix + 1, iy);
    const float g01 = grey_pixel(bgr, pitch, w, h, ix, iy + 1), g11 = grey_pixel(bgr, pitch, w, h, ix + 1, iy + 1);
    const float top = g00 + ax * (g10 - g00), bottom = g01 + ax * (g11 - g01);
    return top + ay * (bottom - top);
}

// Face pixel (col, row) of a side x side face: the mean of the map's taps inside that pixel, rounded to 8 bits.
SWARM_HOST_DEVICE SWARM_INLINE unsigned char face_pixel(const unsigned char* bgr, unsigned long long pitch, int w, int h,
                                                        const FaceMap& m, int side, int col, int row) {
    const int s = m.samples;
    const float step = 1.f / (static_cast<float>(side) * static_cast<float>(s));
    float sum = 0.f;
    for (int j = 0; j < s; ++j) {
        const float b = (static_cast<float>(row * s + j) + 0.5f) * step;
        for (int i = 0; i < s; ++i) {
            const float a = (static_cast<float>(col * s + i) + 0.5f) * step;
            const float uw = m.h[0] * a + m.h[1] * b + m.h[2];
            const float vw = m.h[3] * a + m.h[4] * b + m.h[5];
            float ww = m.h[6] * a + m.h[7] * b + m.h[8];
            ww = ww > 1e-6f ? ww : 1e-6f; // behind the camera: any finite place (the border clamps it)
            sum += grey_bilinear(bgr, pitch, w, h, uw / ww, vw / ww);
        }
    }
    const float g = sum / static_cast<float>(s * s);
    return static_cast<unsigned char>(floorf(g + 0.5f));
}

} // namespace tracker::math
