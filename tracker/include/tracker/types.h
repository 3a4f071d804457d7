#pragma once
// The tracker's vocabulary: categories, colour classes, poses, detections and per-frame timing.
// The app (GUI, process, eval) codes against these; keep the names stable.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <opencv2/core.hpp>

namespace tracker {

enum class Category { Prohibitory, Danger, Mandatory, GiveWay, Stop };
constexpr int k_category_count = 5;
std::string_view to_string(Category c);
std::optional<Category> parse_category(std::string_view name);

// Per-pixel colour classes made by the preprocessing kernel.
enum class ColourClass { Red, Blue, White, Yellow, Other };
constexpr int k_colour_count = 5;
std::string_view to_string(ColourClass c);
std::optional<ColourClass> parse_colour(std::string_view name);

// Sign pose in the camera frame: metres and degrees. x right, y down, z forward (OpenCV convention).
struct Pose {
    double x = 0, y = 0, z = 10;
    double yaw = 0, pitch = 0, roll = 0;
};

struct Detection {
    long long frame = 0;
    int track_id = -1;  // -1 until confirmed as a track
    Category category = Category::Prohibitory;
    Pose pose;
    double fitness = 0; // in [0, 1]
    std::vector<cv::Point2f> outline; // projected model outline, pixels
    cv::Rect2f box;                   // bounding box of the outline
    // This frame's own angle measurement (yaw, pitch, roll: the tracking swarm's best, before the track's
    // running average went into `pose`) and its weight, the sign's width in pixels squared (0: none this frame).
    // smooth_track_angles (tracker/smoothing.h) uses them offline.
    std::array<double, 3> measured_angles{};
    double angle_evidence = 0;
    // The sign's GTSRB class (tracker/sign_classes.h): its track's vote over its frames so far; -1 and "unknown"
    // when no class reaches the classifier's confidence, or when classes are off.
    int class_id = -1;
    std::string class_name = "unknown";
    double class_confidence = 0; // in [0, 1]
};

// A sign's true pose and box in one frame: what the scenes render (scenes/synthetic.h) and truth files hold
// (tracker/io.h), and what evaluation scores detections against (tracker/eval.h, labelled real boxes included).
struct GroundTruth {
    long long frame = 0;
    int id = 0;                 // stable per sign across frames
    Category category = Category::Prohibitory;
    Pose pose;
    cv::Rect2f box;             // of the projected outline, clipped to the image
    double visible = 1.0;       // fraction not occluded / inside the image
};

// Milliseconds per stage; GPU stages measured with CUDA events, CPU stages with a steady clock.
struct StageTiming {
    double upload_ms = 0;
    double preprocess_ms = 0;
    double search_ms = 0;
    double readback_ms = 0;
    // Host wall time of the candidate regions (tracker/src/candidates.h) and the verifier's looks at new detections:
    // CPU work on both backends, outside the GPU stages above.
    double candidates_ms = 0;
    // Sign classes (tracker/sign_classes.h): host wall time of rectifying and classifying the frame's detections,
    // and the GPU time of the rectification launch with its copies (0 on the CPU backend).
    double classify_ms = 0;
    double classify_gpu_ms = 0;
    double total_ms = 0;
    double search_wall_ms = 0; // host wall time of the search stage (equals search_ms on the CPU)
};

// What the GUI draws for one swarm: its particles projected to the image and its best pose.
struct SwarmView {
    int swarm = 0;
    Category category = Category::Prohibitory;
    int track_id = -1; // -1 for detection swarms
    std::vector<cv::Point2f> particles;
    Pose best;
    double best_fitness = 0;
};

struct FrameResult {
    long long frame = 0;
    std::vector<Detection> detections;
    std::vector<SwarmView> swarms; // filled when TrackerSettings::keep_particles is set
    int swarms_run = 0;            // swarms searched this frame (tracking + detection)
    StageTiming timing;
    // Whether the candidate region search ran on this frame; false on a frame that reused the regions of an earlier
    // one (SearchSettings::candidate_interval) and when the candidate pass is off.
    bool regions_searched = false;
};

} // namespace tracker
