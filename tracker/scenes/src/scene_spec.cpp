#include "scene_spec.h"

#include <stdexcept>

namespace tracker {

std::vector<std::string> scene_spec_names() { return {"easy", "noisy", "crowded", "night"}; }

SceneSpec scene_spec(const std::string& name) {
    SceneSpec s;
    s.name = name;
    if (name == "easy") {
        s.signs = 5;
        s.spawn_every = 28;
    } else if (name == "noisy") {
        s.noise_sigma = 12;
        s.blur_sigma = 1.1;
        s.gain_swing = 0.25;
        s.occluder_chance = 0.4;
        s.distractors = 2;
    } else if (name == "crowded") {
        s.signs = 12;
        s.spawn_every = 24;
        s.burst = 3;
        s.noise_sigma = 4;
        s.occluder_chance = 0.25;
        s.distractors = 6;
    } else if (name == "night") {
        s.gain = 0.3;
        s.sign_gain = 0.7;
        s.noise_sigma = 5;
        s.blur_sigma = 0.8;
        s.distractors = 2;
    } else {
        std::string list;
        for (const auto& n : scene_spec_names()) {
            list += (list.empty() ? "" : ", ") + n;
        }
        throw std::invalid_argument("scene '" + name + "' is unknown; choose one of " + list);
    }
    return s;
}

} // namespace tracker
