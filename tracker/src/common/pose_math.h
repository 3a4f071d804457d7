#pragma once
// Pose <-> particle vector and pinhole projection, written once for the CPU path and the CUDA kernels.
// A particle is (x/z, y/z, z, yaw, pitch, roll) with any subset active: searching the viewing ray (x/z, y/z)
// instead of (x, y) makes the bounds a true frustum and decouples image position from depth.
// Rotation: R = Ry(yaw) * Rx(pitch) * Rz(roll) maps sign-frame points (x right, y down, facing the camera)
// into the camera frame; angles in degrees.
#include <cmath>

#include "swarm/host_device.h"

namespace tracker::math {

constexpr int k_pose_dims = 6; // u = x/z, v = y/z, z, yaw, pitch, roll

struct PoseLayout {
    int index[k_pose_dims];   // particle dimension holding pose dimension k, or -1 when fixed
    float fixed[k_pose_dims]; // value used for fixed dimensions
    int dims;                 // active dimensions
};

struct Vec3 {
    float x, y, z;
};

struct RigidPose {
    float r[9]; // row-major rotation
    float t[3];
};

SWARM_HOST_DEVICE SWARM_INLINE float pose_value(const PoseLayout& l, const float* particle, int k) {
    return l.index[k] >= 0 ? particle[l.index[k]] : l.fixed[k];
}

// sin and cos of an angle in radians. On the GPU the hardware approximation (absolute error about 1e-6 over the
// frustum's angles, far below a pixel) instead of the accurate call: the pose is rebuilt by every thread of a
// team for every particle and generation, on the fused search's critical chain of dependent instructions.
SWARM_HOST_DEVICE SWARM_INLINE void sin_cos(float x, float& s, float& c) {
#if defined(__CUDA_ARCH__)
    __sincosf(x, &s, &c);
#else
    s = sinf(x);
    c = cosf(x);
#endif
}

// 1 / x; on the GPU the hardware reciprocal (2 ulp) instead of the IEEE division's refinement sequence,
// for the same reason (once per model point).
SWARM_HOST_DEVICE SWARM_INLINE float reciprocal(float x) {
#if defined(__CUDA_ARCH__)
    return __fdividef(1.f, x);
#else
    return 1.f / x;
#endif
}

// 1 / sqrt(x) for x > 0, the hardware approximation on the GPU.
SWARM_HOST_DEVICE SWARM_INLINE float inverse_sqrt(float x) {
#if defined(__CUDA_ARCH__)
    return rsqrtf(x);
#else
    return 1.f / sqrtf(x);
#endif
}

SWARM_HOST_DEVICE SWARM_INLINE RigidPose rigid_from_params(float u, float v, float z, float yaw_deg, float pitch_deg,
                                                          float roll_deg) {
    const float d2r = 0.017453292519943295f;
    float cy, sy, cp, sp, cr, sr;
    sin_cos(yaw_deg * d2r, sy, cy);
    sin_cos(pitch_deg * d2r, sp, cp);
    sin_cos(roll_deg * d2r, sr, cr);
    RigidPose p;
    // Ry * Rx
    const float a[9] = {cy, sy * sp, sy * cp, 0.f, cp, -sp, -sy, cy * sp, cy * cp};
    // (Ry * Rx) * Rz
    for (int i = 0; i < 3; ++i) {
        p.r[i * 3 + 0] = a[i * 3 + 0] * cr + a[i * 3 + 1] * sr;
        p.r[i * 3 + 1] = -a[i * 3 + 0] * sr + a[i * 3 + 1] * cr;
        p.r[i * 3 + 2] = a[i * 3 + 2];
    }
    p.t[0] = u * z;
    p.t[1] = v * z;
    p.t[2] = z;
    return p;
}

SWARM_HOST_DEVICE SWARM_INLINE RigidPose rigid_from_particle(const PoseLayout& l, const float* particle) {
    return rigid_from_params(pose_value(l, particle, 0), pose_value(l, particle, 1), pose_value(l, particle, 2),
                             pose_value(l, particle, 3), pose_value(l, particle, 4), pose_value(l, particle, 5));
}

SWARM_HOST_DEVICE SWARM_INLINE Vec3 transform(const RigidPose& p, float x, float y, float z) {
    return {p.r[0] * x + p.r[1] * y + p.r[2] * z + p.t[0], p.r[3] * x + p.r[4] * y + p.r[5] * z + p.t[1],
            p.r[6] * x + p.r[7] * y + p.r[8] * z + p.t[2]};
}

SWARM_HOST_DEVICE SWARM_INLINE Vec3 rotate(const RigidPose& p, float x, float y, float z) {
    return {p.r[0] * x + p.r[1] * y + p.r[2] * z, p.r[3] * x + p.r[4] * y + p.r[5] * z,
            p.r[6] * x + p.r[7] * y + p.r[8] * z};
}

struct Intrinsics {
    float fx, fy, cx, cy;
};

// Pixel of a camera-frame point; returns false behind (or too close to) the camera.
SWARM_HOST_DEVICE SWARM_INLINE bool project(const Intrinsics& k, Vec3 c, float& u, float& v) {
    if (c.z < 0.05f) {
        return false;
    }
    const float iz = reciprocal(c.z);
    u = k.fx * c.x * iz + k.cx;
    v = k.fy * c.y * iz + k.cy;
    return true;
}

} // namespace tracker::math
