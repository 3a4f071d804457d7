#pragma once
// The GUI front end of `track`: wires the window, the renderer, the panels and a TrackSession.
#include "core/track_session.h"

namespace app {

int run_gui(const TrackOptions& options);

} // namespace app
