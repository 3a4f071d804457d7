#pragma once
// Where the shipped data (sign models, camera files, presets) lives, so an installed binary runs from any
// folder: $SWARMTRACK_ASSETS when set; else DIR/share/swarmtrack beside an installed DIR/bin/swarmtrack;
// else the source tree's assets/ (a binary run from its build folder).
#include <string>

namespace tracker {

// The assets folder as above. Throws std::runtime_error naming what was looked for when none exists.
std::string assets_dir();

// The folder the running executable lies in (empty when the system does not say).
std::string executable_dir();

} // namespace tracker
