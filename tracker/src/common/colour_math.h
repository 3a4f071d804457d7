#pragma once
// Per-pixel colour-class likelihoods, shared by the CPU preprocessing and the CUDA kernel.
// Hue and saturation decide red / blue / yellow; white is unsaturated and bright relative to the frame's
// mean brightness (so night and low exposure do not flip white to grey) or bright outright.
#include "swarm/host_device.h"

namespace tracker::math {

struct ClassLikelihood {
    float red, blue, white, yellow; // "other" is 1 - (sum, clipped to 1)
};

SWARM_HOST_DEVICE SWARM_INLINE float smoothstep(float e0, float e1, float x) {
    float t = (x - e0) / (e1 - e0);
    t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
    return t * t * (3.f - 2.f * t);
}

// 1 at the hue centre, falling smoothly to 0 at +-width degrees (hue wraps at 360).
SWARM_HOST_DEVICE SWARM_INLINE float hue_weight(float hue, float centre, float width) {
    float d = hue - centre;
    d = d < 0.f ? -d : d;
    d = d > 180.f ? 360.f - d : d;
    return 1.f - smoothstep(0.5f * width, width, d);
}

// b, g, r in [0, 255]; mean_value: the frame's mean of max(r, g, b) in [0, 255] (> 0).
SWARM_HOST_DEVICE SWARM_INLINE ClassLikelihood classify(float b, float g, float r, float mean_value) {
    const float mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    const float mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
    const float chroma = mx - mn;
    const float sat = mx > 1.f ? chroma / mx : 0.f;
    const float rel = mx / (mean_value > 8.f ? mean_value : 8.f); // brightness relative to the frame
    float hue = 0.f;
    if (chroma > 1e-3f) {
        if (mx == r) {
            hue = 60.f * (g - b) / chroma;
        } else if (mx == g) {
            hue = 60.f * ((b - r) / chroma + 2.f);
        } else {
            hue = 60.f * ((r - g) / chroma + 4.f);
        }
        hue = hue < 0.f ? hue + 360.f : hue;
    }
    // Dark pixels have unreliable hue; chroma must also stand out of sensor noise.
    const float lit = smoothstep(0.12f, 0.3f, rel) * smoothstep(6.f, 16.f, chroma);
    const float coloured = smoothstep(0.25f, 0.45f, sat) * lit;
    ClassLikelihood c;
    c.red = coloured * hue_weight(hue, 0.f, 30.f);
    c.blue = coloured * hue_weight(hue, 220.f, 40.f);
    c.yellow = coloured * hue_weight(hue, 52.f, 22.f);
    // White: unsaturated and either bright for this frame (night, low exposure) or bright outright. The
    // relative test alone fails in bright frames: when exposure rises and the sky clips, the frame's mean
    // climbs towards white itself and a sign's white disc (255, 255, 255) stops being 1.6x the mean.
    const float bright = smoothstep(1.15f, 1.6f, rel);
    const float absolute = smoothstep(150.f, 200.f, mx);
    c.white = (1.f - smoothstep(0.12f, 0.28f, sat)) * (bright > absolute ? bright : absolute);
    return c;
}

// Paint coverage. A pixel fully covered by sign paint has about the largest chroma near it; one that the paint
// covers only partly (a blurred edge) has proportionally less. The hue test above is brightness-invariant, so
// over a dark background a faint trace of paint (dark red is still red) keeps full likelihood and the class
// maps show each sign about a pixel larger than it is, so the fitness peaked short of the true depth. Scaling
// the sign colours by chroma / (0.85 x the maximum chroma within 2 pixels) puts the maps' edge where the paint
// covers about half a pixel (docs/benchmarks.md, "Design evidence").
constexpr int k_cover_radius = 2;      // the local maximum is over (2r + 1)^2 pixels, clamped at the frame
constexpr float k_cover_full = 0.85f;  // chroma at this share of the local maximum counts as fully painted

SWARM_HOST_DEVICE SWARM_INLINE float chroma_of(float b, float g, float r) {
    const float mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    const float mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
    return mx - mn;
}

SWARM_HOST_DEVICE SWARM_INLINE void apply_cover(ClassLikelihood& c, float chroma, float local_max_chroma) {
    const float full = k_cover_full * local_max_chroma;
    const float cover = chroma >= full ? 1.f : chroma / (full > 1.f ? full : 1.f);
    c.red *= cover;
    c.blue *= cover;
    c.yellow *= cover;
}

// The scalar whose gradient drives the edge term: how much a pixel looks like any sign colour.
SWARM_HOST_DEVICE SWARM_INLINE float sign_colour(const ClassLikelihood& c) {
    const float s = c.red + c.blue + c.yellow;
    return s > 1.f ? 1.f : s;
}

} // namespace tracker::math
