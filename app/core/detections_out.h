#pragma once
// Per-frame detection writers for the process command: JSON lines (one detection per line) and the
// MOT-challenge CSV layout (frame, id, left, top, width, height, conf, x, y, z; frames 1-based).
#include <ostream>

#include "tracker/types.h"

namespace app {

void write_jsonl(std::ostream& out, const tracker::FrameResult& result);
void write_mot(std::ostream& out, const tracker::FrameResult& result);

} // namespace app
