#pragma once
// The named synthetic scenes: how many signs, how they move, and which nuisances are applied.
#include <string>
#include <vector>

namespace tracker {

struct SceneSpec {
    std::string name;
    long long frames = 150;     // natural length at 25 fps
    double speed = 0.48;        // metres per frame towards the signs (12 m/s at 25 fps)
    int signs = 6;              // signs over the whole scene
    int spawn_every = 22;       // frames between sign spawns (several overlap when small)
    int burst = 1;              // signs spawned together
    double noise_sigma = 2;     // Gaussian pixel noise (8-bit units)
    double blur_sigma = 0.5;    // optical blur in pixels
    double gain = 1.0;          // global brightness
    double gain_swing = 0;      // +- brightness change over the scene
    double sign_gain = 1.0;     // retroreflection at night: signs stay brighter than the background
    double occluder_chance = 0; // per sign: a pole or branch in front of part of it
    int distractors = 0;        // sign-coloured objects along the road
};

// Throws std::invalid_argument listing the names.
SceneSpec scene_spec(const std::string& name);
std::vector<std::string> scene_spec_names();

} // namespace tracker
