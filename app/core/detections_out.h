#pragma once
// Per-frame detection writers for the process command: JSON lines in tracker/io.h's format (a frame
// record, then one line per detection) and the MOT-challenge CSV layout (frame, id, left, top, width,
// height, conf, x, y, z; frames 1-based) with the sign's class id as an extra last column.
#include <ostream>
#include <string>

#include <opencv2/core.hpp>

#include "tracker/types.h"

namespace app {

// `image`: the still's file name for the frame record ("file"); empty for frames of a video.
void write_jsonl(std::ostream& out, const tracker::FrameResult& result, cv::Size frame_size, const std::string& image = "");
void write_mot(std::ostream& out, const tracker::FrameResult& result);

} // namespace app
