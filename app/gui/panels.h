#pragma once
// The GUI's panels as functions of plain state (like Dear ImGui's example_null, they need an ImGui
// context but no window), plus the state logic behind them as plain functions the tests call directly.
#include <string>
#include <vector>

#include "core/annotate.h"
#include "core/playback.h"
#include "core/timing.h"
#include "tracker/tracker.h"

namespace app::gui {

struct Rect {
    float x = 0, y = 0, width = 0, height = 0;
};

struct SourceInfo {
    std::string description, device;
    bool live = false, seekable = false;
    long long frame_count = -1, position = 0, dropped = 0, skipped = 0;
    double fps = 0;
};

struct PresetPanel {
    std::string path;
    std::string message; // result of the last save/load, shown under the buttons
};

struct RecordPanel {
    std::string path = "swarmtrack-recording.mp4";
    std::string message;
};
enum class RecordAction { None, Start, Stop };

// Every tracker and PSO parameter. True when something changed (the caller applies the settings).
bool draw_params(tracker::TrackerSettings& settings, const std::string& apply_error);
// Save / load the settings as a preset file. True when a preset was loaded into `settings`.
bool draw_presets(tracker::TrackerSettings& settings, PresetPanel& panel);
// Stacked per-stage plot of the last frames plus fps; `drawn` receives the window's rectangle.
void draw_timing(const TimingHistory& history, const std::string& device, Rect* drawn = nullptr);
void draw_detections(const tracker::FrameResult& result);
void draw_playback(PlaybackState& playback, const SourceInfo& source, OverlayOptions& overlay);
RecordAction draw_recording(RecordPanel& panel, bool recording, long long frames);

// ---- state logic, no ImGui ----
bool category_enabled(const std::vector<tracker::Category>& list, tracker::Category c);
// Adds or removes `c`, keeping the categories in their canonical order without duplicates.
void set_category_enabled(std::vector<tracker::Category>& list, tracker::Category c, bool enabled);
// Writes through a temporary name; returns "saved PATH" or "error: …".
std::string save_preset(const tracker::TrackerSettings& settings, const std::string& path);
// On success replaces `settings` and returns true; otherwise leaves it untouched and `message` names the
// file and the offending key.
bool load_preset(const std::string& path, tracker::TrackerSettings& settings, std::string& message);
// "auto" followed by every engine strategy, for the strategy combo.
std::vector<std::string> strategy_choices();
// Colour of a stage in the timing plot (ImGui packed ABGR).
unsigned int stage_colour(Stage s);

} // namespace app::gui
