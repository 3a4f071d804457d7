#pragma once
// Synthetic scenes with exact ground truth: signs of every category approaching as from a vehicle.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "tracker/camera.h"
#include "tracker/types.h"

namespace tracker {

struct SceneFrame {
    cv::Mat bgr;
    std::vector<GroundTruth> truth;
};

class SceneGenerator {
public:
    virtual ~SceneGenerator() = default;
    virtual SceneFrame next() = 0;          // deterministic from the seed
    virtual long long frame_count() const = 0; // the scene's natural length
    virtual const Camera& camera() const = 0;
    virtual std::string name() const = 0;
};

// Names: easy, noisy, crowded, night (at least). Throws std::invalid_argument listing the names.
std::vector<std::string> scene_names();
// `background_video` must be empty here (the library does not link video I/O); the app opens videos and
// passes their frames through the BackgroundSource overload.
std::unique_ptr<SceneGenerator> create_scene(const std::string& name, int width, int height,
                                             unsigned long long seed, const std::string& background_video = "");

// Frames of a user video (or any source) as backgrounds: returns false when exhausted (the procedural
// background is used from then on). Frames are resized to the scene size.
using BackgroundSource = std::function<bool(cv::Mat& bgr)>;
std::unique_ptr<SceneGenerator> create_scene(const std::string& name, int width, int height,
                                             unsigned long long seed, BackgroundSource background);

// The "real" scene: signs cut from labelled real frames (DIR/labels.csv in the dev set's format, DIR/images/)
// approach over one of those frames, its own signs covered, along the synthetic scenes' trajectories; the ground
// truth is the pose each appearance is drawn at, mapped onto its model's outline. `read` decodes an image file
// (the library links no image codecs); an empty Mat is skipped. Throws std::invalid_argument naming DIR when it
// holds no such data.
using ImageReader = std::function<cv::Mat(const std::string& path)>;
std::unique_ptr<SceneGenerator> create_real_scene(const std::string& data_dir, int width, int height,
                                                  unsigned long long seed, const ImageReader& read);

// Renders one sign model at a pose over `bgr` (anti-aliased, sub-pixel), with a per-layer colour gain.
struct SignModel;
void render_sign(cv::Mat& bgr, const Camera& camera, const SignModel& model, const Pose& pose, double gain = 1.0);

} // namespace tracker
