#pragma once
// Records annotated frames to a video file: written under a temporary name, renamed when stopped.
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

namespace app {

class Recorder {
public:
    ~Recorder() { stop(); }
    // .avi records Motion-JPEG, anything else MPEG-4. Throws std::runtime_error naming the path.
    void start(const std::string& path, cv::Size size, double fps);
    void write(const cv::Mat& bgr);
    void stop(); // finishes the file and renames it into place
    bool recording() const { return m_writer.isOpened(); }
    long long frames() const { return m_frames; }
    const std::string& path() const { return m_path; }

private:
    cv::VideoWriter m_writer;
    std::string m_path, m_temp;
    cv::Size m_size;
    long long m_frames = 0;
};

} // namespace app
