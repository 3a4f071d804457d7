#pragma once
// JSON-lines files shared by `synth`, `process` and `eval`. One object per line, with a "type":
//   {"type":"frame","frame":12,"width":1280,"height":720,"detections":2,"file":"00012.jpg",
//    "timing":{"upload_ms":..,"preprocess_ms":..,"search_ms":..,"readback_ms":..,"total_ms":..}}
//   {"type":"detection","frame":12,"track_id":3,"category":"stop",
//    "pose":{"x":..,"y":..,"z":..,"yaw":..,"pitch":..,"roll":..},"fitness":0.93,
//    "box":[x,y,w,h],"outline":[[u,v],...]}
//   {"type":"truth","frame":12,"id":4,"category":"danger","pose":{...},"box":[x,y,w,h],"visible":0.8}
// Frame lines list every frame that was processed / rendered, so frames without signs count too. "file" is
// optional: the image's file name, written for stills.
// Poses in metres and degrees (camera frame, x right, y down, z forward); boxes and outlines in pixels.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "tracker/types.h"

namespace tracker {

struct FrameRecord {
    long long frame = 0;
    int width = 0, height = 0;  // 0 when unknown
    int detections = 0;
    StageTiming timing;
    bool has_timing = false;
    std::string file; // the image this frame came from, when each frame is a still (`process --stills`)
};

std::string to_json_line(const Detection& d);
std::string to_json_line(const GroundTruth& g);
std::string to_json_line(const FrameRecord& f);

// Everything in one file; lines of other types are errors in strict readers below.
struct PredictionFile {
    std::map<long long, FrameRecord> frames;
    std::vector<Detection> detections;
};
struct TruthFile {
    std::map<long long, FrameRecord> frames;
    std::vector<GroundTruth> truth;
};

// Throw std::runtime_error "FILE:LINE: field 'F': reason" on the first malformed line.
PredictionFile read_predictions(const std::string& path);
TruthFile read_truth(const std::string& path);

// Writes line by line to temp_path_for(path) (tracker/atomic_write.h) and renames onto `path` in commit(); a
// writer destroyed without commit() removes its temporary, so a failed run never leaves a half-written file.
class AtomicTextWriter {
public:
    explicit AtomicTextWriter(std::string path); // throws naming the path when it cannot be created
    ~AtomicTextWriter();
    AtomicTextWriter(const AtomicTextWriter&) = delete;
    AtomicTextWriter& operator=(const AtomicTextWriter&) = delete;

    void write_line(const std::string& line);
    void commit();
    const std::string& temp_path() const { return m_temp; }

private:
    std::string m_path, m_temp;
    std::FILE* m_file = nullptr;
    bool m_committed = false;
};

} // namespace tracker
