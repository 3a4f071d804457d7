#pragma once
// Frame sources behind one interface: camera:N, a video file, a folder of images, synthetic[:scene].
// Live sources (camera, synthetic in real time) always hand out the newest frame and count the ones
// that were overwritten before anyone read them; file sources hand out every frame and can seek.
#include <memory>
#include <string>

#include <opencv2/core.hpp>

#include "sources/image_name.h"

namespace app {

struct Frame {
    cv::Mat bgr;            // 8-bit BGR
    long long index = 0;    // position in the source (file sources) or capture counter (live ones)
    double capture_ms = 0;  // time spent decoding / waiting for this frame
    std::string name;       // image folders: the image's file name (no folder); empty for other sources
};

class FrameSource {
public:
    virtual ~FrameSource() = default;
    // Next frame; false at the end of the source (never for live sources unless they fail).
    virtual bool read(Frame& frame) = 0;
    virtual std::string description() const = 0; // e.g. "video clip.mp4 (1280x720, 30 fps, 300 frames)"
    virtual cv::Size size() const = 0;
    virtual double fps() const = 0;              // nominal rate; 0 when unknown
    virtual bool live() const { return false; }
    virtual long long frame_count() const { return -1; } // -1 when unknown or unbounded
    virtual bool seekable() const { return false; }
    virtual bool seek(long long /*index*/) { return false; } // next read() returns frame `index`
    virtual long long dropped() const { return 0; }  // live: frames replaced by a newer one unread
    virtual long long skipped() const { return 0; }  // files: frames that could not be decoded
};

struct SourceOptions {
    double synthetic_fps = 30;     // pace of synthetic:… when live
    bool synthetic_live = true;    // false: hand out synthetic frames as fast as they are asked for
    cv::Size synthetic_size{1280, 720};
    unsigned long long seed = 1;
    long long synthetic_frames = -1; // -1: the scene's natural length (file-like) or endless when live
    // Image folders: each image keeps its own size (unrelated stills) instead of being scaled to the first's.
    bool native_size = false;
};

// Parses the input spec and opens it. Throws std::runtime_error with one line naming the input and the fix.
std::unique_ptr<FrameSource> open_source(const std::string& spec, const SourceOptions& options = {});

std::unique_ptr<FrameSource> open_camera(int index);
std::unique_ptr<FrameSource> open_video(const std::string& path);
std::unique_ptr<FrameSource> open_image_folder(const std::string& path, bool native_size = false);
std::unique_ptr<FrameSource> open_synthetic(const std::string& scene, const SourceOptions& options);

} // namespace app
