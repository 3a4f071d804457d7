#pragma once
// Per-frame detection writers for the process command: JSON lines in tracker/io.h's format (a frame
// record, then one line per detection) and the MOT-challenge CSV layout (frame, id, left, top, width,
// height, conf, x, y, z; frames 1-based).
#include <ostream>

#include <opencv2/core.hpp>

#include "tracker/types.h"

namespace app {

void write_jsonl(std::ostream& out, const tracker::FrameResult& result, cv::Size frame_size);
void write_mot(std::ostream& out, const tracker::FrameResult& result);

} // namespace app
