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

// Degrees between two hues in [0, 360), the short way round the wheel: [0, 180].
SWARM_HOST_DEVICE SWARM_INLINE float hue_distance(float hue_a, float hue_b) {
    float d = hue_a - hue_b;
    d = d < 0.f ? -d : d;
    return d > 180.f ? 360.f - d : d;
}

// 1 at the hue centre, falling smoothly to 0 at +-width degrees (hue wraps at 360).
SWARM_HOST_DEVICE SWARM_INLINE float hue_weight(float hue, float centre, float width) {
    return 1.f - smoothstep(0.5f * width, width, hue_distance(hue, centre));
}

// 1 for hue (degrees, [0, 360)) in [lo_full, hi_full], falling smoothly to 0 at lo_zero and hi_zero; the band is
// given in (-180, 180], so a band about red spans 0.
SWARM_HOST_DEVICE SWARM_INLINE float hue_band(float hue, float lo_zero, float lo_full, float hi_full, float hi_zero) {
    const float h = hue > 180.f ? hue - 360.f : hue;
    return smoothstep(lo_zero, lo_full, h) * (1.f - smoothstep(hi_full, hi_zero, h));
}

// Hue in degrees [0, 360) of b, g, r (0 for a grey).
SWARM_HOST_DEVICE SWARM_INLINE float hue_of(float b, float g, float r) {
    const float mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    const float mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
    const float chroma = mx - mn;
    if (chroma <= 1e-3f) return 0.f;
    float hue;
    if (mx == r) {
        hue = 60.f * (g - b) / chroma;
    } else if (mx == g) {
        hue = 60.f * ((b - r) / chroma + 2.f);
    } else {
        hue = 60.f * ((r - g) / chroma + 4.f);
    }
    return hue < 0.f ? hue + 360.f : hue;
}

// A darker camera or exposure scales a sign's chroma down with the frame's brightness, while JPEG has already
// smoothed the sensor's noise away: the chroma floor below is set for a frame of ordinary exposure (a mean of
// max(r, g, b) of k_ordinary_mean or more; the dev frames' median is 135) and scales with the frame's mean under
// it, down to k_min_exposure. Local exposure cannot do this: it brightens a dark part against the frame's own
// mean, and a uniformly darker frame has none.
constexpr float k_ordinary_mean = 128.f;
constexpr float k_min_exposure = 0.4f;
SWARM_HOST_DEVICE SWARM_INLINE float frame_exposure(float mean_value) {
    const float e = mean_value * (1.f / k_ordinary_mean);
    return e > 1.f ? 1.f : (e < k_min_exposure ? k_min_exposure : e);
}

// The likelihoods under one light: b, g, r in [0, 255] as that light shows them; mean_value: the frame's mean of
// max(r, g, b) in [0, 255] (> 0).
SWARM_HOST_DEVICE SWARM_INLINE ClassLikelihood classify_under(float b, float g, float r, float mean_value) {
    const float mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    const float mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
    const float chroma = mx - mn;
    const float sat = mx > 1.f ? chroma / mx : 0.f;
    const float rel = mx / (mean_value > 8.f ? mean_value : 8.f); // brightness relative to the frame
    const float hue = hue_of(b, g, r);
    // Dark pixels have unreliable hue; chroma must also stand out of sensor noise (at the frame's exposure).
    const float exposure = frame_exposure(mean_value);
    const float lit = smoothstep(0.12f, 0.3f, rel) * smoothstep(6.f * exposure, 16.f * exposure, chroma);
    const float coloured = smoothstep(0.25f, 0.45f, sat) * lit;
    // A red rim is thin: on a 15-20 px sign it is a pixel or two wide, blurred into the white beside it, and
    // faded paint is pink; such a rim's saturation is 0.2-0.35. Red takes a lower saturation than blue, whose
    // pale counterpart is the sky.
    const float reddish = smoothstep(0.15f, 0.35f, sat) * lit;
    ClassLikelihood c;
    // Red paint under a cold light (dusk, shade, a blue sky's fill) drifts towards magenta, even after the white
    // balance below; towards orange it would meet the yellow class and skin, so the band is lopsided.
    c.red = reddish * hue_band(hue, -50.f, -25.f, 15.f, 30.f);
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

// Shade. The camera balances for the sunlit scene; a sign in the shade of trees or buildings, or facing away from
// the sun, is lit by the blue sky alone: its white turns pale blue (blue 1.3-1.7x red) and its red rim magenta,
// neither of which the classes above accept. Seen under the skylight's inverse (blue and green scaled down), the
// same pixels are white and red again. A sign is in the sun or in the shade, so red and white take the better of
// the two readings; blue and yellow are read as the camera shows them (skylight would make a white disc blue).
// A saturated magenta reads as partly red then (0.4 for pure magenta); capping the shade reading at a shaded rim's
// saturation (0.45-0.6) lost more dev-frame signs than it saved false finds (docs/benchmarks.md, "Real footage").
constexpr float k_shade_blue = 0.72f;
constexpr float k_shade_green = 0.94f;

// b, g, r in [0, 255]; mean_value: the frame's mean of max(r, g, b) in [0, 255] (> 0).
SWARM_HOST_DEVICE SWARM_INLINE ClassLikelihood classify(float b, float g, float r, float mean_value) {
    ClassLikelihood c = classify_under(b, g, r, mean_value);
    const ClassLikelihood shade = classify_under(k_shade_blue * b, k_shade_green * g, r, mean_value);
    c.red = shade.red > c.red ? shade.red : c.red;
    c.white = shade.white > c.white ? shade.white : c.white;
    return c;
}

// Grey-world white balance. Cameras misjudge the light at dusk, in shade and in haze: the whole frame takes a blue
// or violet cast and a red rim turns magenta (its hue 40-130 degrees below red's). Each channel is scaled by the
// frame's mean over that channel's mean, within [k_balance_min, k_balance_max] so a frame that really is mostly
// one colour (a sky, a hedge) is not pushed far; in ordinary light the gains are about 1.
constexpr float k_balance_min = 0.75f;
constexpr float k_balance_max = 1.33f;

struct ChannelGains {
    float b, g, r;
};

SWARM_HOST_DEVICE SWARM_INLINE float balance_gain(double grey, double channel) {
    const float f = static_cast<float>(grey / channel);
    return f < k_balance_min ? k_balance_min : (f > k_balance_max ? k_balance_max : f);
}

// The gains from the frame's channel sums over `pixels` pixels.
SWARM_HOST_DEVICE SWARM_INLINE ChannelGains grey_world_gains(double sum_b, double sum_g, double sum_r, double pixels) {
    // A channel whose mean is under 1 of 255 is black, not a cast.
    const double b = sum_b > pixels ? sum_b : pixels, g = sum_g > pixels ? sum_g : pixels;
    const double r = sum_r > pixels ? sum_r : pixels;
    const double grey = (b + g + r) / 3.0;
    return {balance_gain(grey, b), balance_gain(grey, g), balance_gain(grey, r)};
}

// Local exposure. A sign in shade, against the light or at dusk is far darker than the frame: its red has a
// chroma of 10-25 of 255 and its white is grey, so classify's tests against sensor noise and the frame's mean
// brightness see neither. A camera's local tone mapping fixes what the eye fixes: each pixel is brightened by the
// frame's mean brightness over the mean brightness around it, up to k_exposure_max_gain, before it is
// classified; lit areas (gain 1) stay as they were. "Around it": the mean of max(b, g, r) over tiles of
// k_exposure_tile pixels (the last row and column of tiles take the frame's remainder), averaged over the
// (2 k_exposure_radius + 1)^2 tiles about each tile, interpolated between tile centres.
constexpr int k_exposure_tile = 16;
constexpr int k_exposure_radius = 1;
constexpr float k_exposure_max_gain = 4.f;
constexpr float k_exposure_dark_floor = 4.f; // a level below this is black, not a scene to expose for

SWARM_HOST_DEVICE SWARM_INLINE int exposure_tiles(int pixels) {
    return pixels / k_exposure_tile > 1 ? pixels / k_exposure_tile : 1;
}

// The tile holding pixel coordinate p.
SWARM_HOST_DEVICE SWARM_INLINE int exposure_tile_of(int p, int tiles) {
    const int t = p / k_exposure_tile;
    return t < tiles - 1 ? t : tiles - 1;
}

// The first pixel coordinate of tile t, and one past its last.
SWARM_HOST_DEVICE SWARM_INLINE int exposure_tile_begin(int t) { return t * k_exposure_tile; }
SWARM_HOST_DEVICE SWARM_INLINE int exposure_tile_end(int t, int tiles, int pixels) {
    return t == tiles - 1 ? pixels : (t + 1) * k_exposure_tile;
}

// Tile (i, j) of the smoothed grid from the tile means (gw x gh, row-major), the border tiles repeated.
SWARM_HOST_DEVICE SWARM_INLINE float exposure_smoothed(const float* means, int gw, int gh, int i, int j) {
    float sum = 0.f;
    for (int dj = -k_exposure_radius; dj <= k_exposure_radius; ++dj) {
        int y = j + dj;
        y = y < 0 ? 0 : (y > gh - 1 ? gh - 1 : y);
        for (int di = -k_exposure_radius; di <= k_exposure_radius; ++di) {
            int x = i + di;
            x = x < 0 ? 0 : (x > gw - 1 ? gw - 1 : x);
            sum += means[y * gw + x];
        }
    }
    constexpr int side = 2 * k_exposure_radius + 1;
    return sum * (1.f / static_cast<float>(side * side));
}

// The gain at pixel (x, y) from the smoothed grid and the frame's mean brightness.
SWARM_HOST_DEVICE SWARM_INLINE float exposure_gain(const float* smoothed, int gw, int gh, int x, int y, float mean) {
    float fx = (static_cast<float>(x) + 0.5f) * (1.f / k_exposure_tile) - 0.5f;
    float fy = (static_cast<float>(y) + 0.5f) * (1.f / k_exposure_tile) - 0.5f;
    fx = fx < 0.f ? 0.f : (fx > static_cast<float>(gw - 1) ? static_cast<float>(gw - 1) : fx);
    fy = fy < 0.f ? 0.f : (fy > static_cast<float>(gh - 1) ? static_cast<float>(gh - 1) : fy);
    const int i0 = static_cast<int>(fx), j0 = static_cast<int>(fy);
    const int i1 = i0 + 1 < gw ? i0 + 1 : i0, j1 = j0 + 1 < gh ? j0 + 1 : j0;
    const float ax = fx - static_cast<float>(i0), ay = fy - static_cast<float>(j0);
    const float top = smoothed[j0 * gw + i0] + ax * (smoothed[j0 * gw + i1] - smoothed[j0 * gw + i0]);
    const float bottom = smoothed[j1 * gw + i0] + ax * (smoothed[j1 * gw + i1] - smoothed[j1 * gw + i0]);
    const float level = top + ay * (bottom - top);
    const float gain = mean / (level > k_exposure_dark_floor ? level : k_exposure_dark_floor);
    return gain < 1.f ? 1.f : (gain > k_exposure_max_gain ? k_exposure_max_gain : gain);
}

// Paint coverage. A pixel fully covered by sign paint has about the largest chroma near it; one that the paint
// covers only partly (a blurred edge) has proportionally less. The hue test above is brightness-invariant, so
// over a dark background a faint trace of paint (dark red is still red) keeps full likelihood and the class
// maps show each sign about a pixel larger than it is, so the fitness peaked short of the true depth. Scaling
// the sign colours by chroma / (0.85 x the maximum chroma within 2 pixels) puts the maps' edge where the paint
// covers about half a pixel (docs/benchmarks.md, "Design evidence").
// The maximum may be taken over the neighbours of the pixel's own paint only (hue within FitnessSettings::cover_hue
// degrees; 180, every hue, by default): a blurred edge is its paint mixed with white or the background, so its hue
// stays the paint's, while a more saturated paint of another hue beside a rim (a yellow face) says nothing about
// how much of the pixel the rim covers. Measured against every hue, a red rim beside a yellow face lost most of its
// red; on the white-faced signs of the dev set the narrower maximum gave more red clutter than signs
// (docs/benchmarks.md, "Yellow faces").
constexpr int k_cover_radius = 2;      // the local maximum is over (2r + 1)^2 pixels, clamped at the frame
constexpr float k_cover_full = 0.85f;  // chroma at this share of the local maximum counts as fully painted

SWARM_HOST_DEVICE SWARM_INLINE float chroma_of(float b, float g, float r) {
    const float mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
    const float mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
    return mx - mn;
}

// Two pixels' hues within `window` degrees of each other: one paint for the coverage's maximum (180: any two).
constexpr float k_cover_every_hue = 180.f;
SWARM_HOST_DEVICE SWARM_INLINE bool same_paint(float hue_a, float hue_b, float window) {
    return hue_distance(hue_a, hue_b) <= window;
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
