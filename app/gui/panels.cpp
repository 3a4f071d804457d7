// Dear ImGui panels. Each is a function of plain state; gui_app.cpp places the windows and applies changes.
#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "core/palette.h"
#include "swarm/strategy.h"
#include "gui/panels.h"

namespace app::gui {
namespace {

bool combo(const char* label, std::string& value, const std::vector<std::string>& choices) {
    bool changed = false;
    if (ImGui::BeginCombo(label, value.c_str())) {
        for (const auto& c : choices) {
            const bool selected = c == value;
            if (ImGui::Selectable(c.c_str(), selected)) {
                changed = c != value;
                value = c;
            }
            if (selected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    return changed;
}

// The engine's enums as combos of the names a settings file uses.
bool combo(const char* label, swarm::Topology& value) {
    std::string name(tracker::to_string(value));
    if (!combo(label, name, {"ring", "global"})) return false;
    value = *tracker::parse_topology(name);
    return true;
}

bool combo(const char* label, swarm::Strategy& value) {
    static const std::vector<std::string> k_strategies = strategy_choices();
    std::string name(swarm::to_string(value));
    if (!combo(label, name, k_strategies)) return false;
    value = *swarm::parse_strategy(name);
    return true;
}

bool combo(const char* label, swarm::Backend& value) {
    std::string name(swarm::to_string(value));
    if (!combo(label, name, {"cpu", "cuda", "auto"})) return false;
    value = *swarm::parse_backend(name);
    return true;
}

bool input_double(const char* label, double& v, double lo, double hi, const char* format = "%.3f") {
    return ImGui::SliderScalar(label, ImGuiDataType_Double, &v, &lo, &hi, format);
}

} // namespace

bool draw_params(tracker::TrackerSettings& s, const std::string& apply_error) {
    bool changed = false;
    if (ImGui::CollapsingHeader("Search (PSO)", ImGuiTreeNodeFlags_DefaultOpen)) {
        changed |= ImGui::SliderInt("particles / swarm", &s.search.particles, 4, 1024);
        changed |= ImGui::SliderInt("generations / frame", &s.search.generations, 1, 500);
        changed |= ImGui::SliderInt("detection generations (0 auto)", &s.search.detection_generations, 0, 500);
        changed |= ImGui::SliderInt("detection swarms / category", &s.search.detection_swarms_per_category, 1, 8);
        changed |= ImGui::SliderInt("detection tile columns (0 auto)", &s.search.detection_columns, 0, 16);
        changed |= ImGui::SliderInt("detection tile rows (0 auto)", &s.search.detection_rows, 0, 16);
        changed |= ImGui::SliderInt("region search every N frames (0 auto)", &s.search.candidate_interval, 0, 8);
        changed |= ImGui::SliderInt("verified swarms", &s.search.verified_swarms, 0, 64);
        changed |= input_double("verified triangle search share", s.search.verified_search_share, 0.01, 1.0);
        changed |= ImGui::Checkbox("verified triangle regions", &s.search.verified_regions);
        changed |= ImGui::Checkbox("face regions", &s.search.face_regions);
        changed |= ImGui::Checkbox("stacked sign regions", &s.search.stacked_regions);
        changed |= input_double("w (inertia)", s.search.w, 0.0, 1.2);
        changed |= input_double("c1 (personal)", s.search.c1, 0.0, 4.0);
        changed |= input_double("c2 (social)", s.search.c2, 0.0, 4.0);
        changed |= combo("topology", s.search.topology);
        changed |= combo("strategy", s.engine.strategy);
        changed |= combo("backend", s.engine.backend);
        static const char* const k_team_sizes[] = {"auto", "1", "2", "4"};
        static const int k_team_values[] = {0, 1, 2, 4};
        const int* team_value = std::find(std::begin(k_team_values), std::end(k_team_values), s.engine.gpu_team_warps);
        int team = static_cast<int>(team_value - std::begin(k_team_values));
        if (ImGui::Combo("GPU warps / particle", &team, k_team_sizes, 4)) {
            s.engine.gpu_team_warps = k_team_values[team];
            changed = true;
        }
        changed |= ImGui::Checkbox("GPU cluster barrier", &s.engine.gpu_cluster_barrier);
        int seed = static_cast<int>(s.search.seed);
        if (ImGui::InputInt("seed", &seed) && seed >= 0) {
            s.search.seed = static_cast<unsigned long long>(seed);
            changed = true;
        }
    }
    if (ImGui::CollapsingHeader("Detection and tracking", ImGuiTreeNodeFlags_DefaultOpen)) {
        changed |= input_double("threshold", s.fitness.detect_threshold, 0.0, 1.0);
        changed |= input_double("verified threshold (stills)", s.fitness.verified_threshold, 0.0, 1.0, "%.2f");
        changed |= input_double("under 12 px threshold (stills)", s.fitness.small_find_threshold, 0.0, 1.0, "%.2f");
        changed |= input_double("cover hue (deg)", s.fitness.cover_hue, 1.0, 180.0, "%.0f");
        changed |= input_double("re-spread fraction", s.tracking.respread_fraction, 0.0, 1.0, "%.2f");
        changed |= input_double("angle re-spread fraction", s.tracking.angle_respread_fraction, 0.0, 1.0, "%.2f");
        changed |= input_double("track focus share", s.tracking.track_focus_share, 0.0, 1.0, "%.2f");
        changed |= input_double("track focus scale", s.tracking.track_focus_scale, 0.01, 1.0, "%.2f");
        changed |= ImGui::SliderInt("confirm frames", &s.tracking.confirm_frames, 1, 10);
        changed |= ImGui::SliderInt("max missed frames", &s.tracking.max_missed, 0, 30);
        changed |= ImGui::Checkbox("hide tracks the verifier refuses", &s.tracking.hide_refused);
        changed |= input_double("duplicate IoU", s.tracking.duplicate_iou, 0.0, 1.0, "%.2f");
        changed |= input_double("edge gain", s.fitness.edge_gain, 0.05, 100.0, "%.2f");
        changed |= input_double("edge crossing", s.fitness.edge_crossing, 0.0, 1.0, "%.2f");
        changed |= input_double("occluder credit", s.fitness.occluder_credit, 0.0, 1.0, "%.2f");
        changed |= input_double("yellow interior", s.fitness.yellow_interior, 0.0, 1.0, "%.2f");
        changed |= input_double("group floor", s.fitness.group_floor, 0.0, 1.0, "%.2f");
        changed |= input_double("rim floor", s.fitness.rim_floor, 0.0, 1.0, "%.2f");
        changed |= input_double("paint blur (px)", s.fitness.paint_blur, 0.0, 5.0, "%.2f");
        changed |= input_double("depth filter gain", s.tracking.depth_filter_gain, 0.05, 1.0, "%.2f");
        changed |= input_double("angle memory", s.tracking.angle_memory, 0.0, 1.0, "%.3f");
        changed |= input_double("angle prior (px)", s.tracking.angle_prior_px, 0.0, 10000.0, "%.0f");
        ImGui::TextUnformatted("categories");
        for (int i = 0; i < tracker::k_category_count; ++i) {
            const auto c = static_cast<tracker::Category>(i);
            bool on = category_enabled(s.signs.categories, c);
            if (i % 3 != 0) ImGui::SameLine();
            if (ImGui::Checkbox(std::string(tracker::to_string(c)).c_str(), &on)) {
                set_category_enabled(s.signs.categories, c, on);
                changed = true;
            }
        }
    }
    if (ImGui::CollapsingHeader("Search frustum and camera")) {
        changed |= input_double("z min (m)", s.frustum.z_min, 1.0, 100.0, "%.1f");
        changed |= input_double("z max (m)", s.frustum.z_max, 1.0, 200.0, "%.1f");
        changed |= input_double("x min (m)", s.frustum.x_min, -50.0, 0.0, "%.1f");
        changed |= input_double("x max (m)", s.frustum.x_max, 0.0, 50.0, "%.1f");
        changed |= input_double("y min (m)", s.frustum.y_min, -20.0, 0.0, "%.1f");
        changed |= input_double("y max (m)", s.frustum.y_max, 0.0, 20.0, "%.1f");
        changed |= input_double("yaw +- (deg)", s.frustum.yaw_range, 0.0, 90.0, "%.0f");
        changed |= input_double("pitch +- (deg)", s.frustum.pitch_range, 0.0, 90.0, "%.0f");
        changed |= input_double("roll +- (deg)", s.frustum.roll_range, 0.0, 90.0, "%.0f");
        changed |= input_double("smallest sign (px)", s.frustum.min_sign_px, 0.0, 100.0, "%.1f");
        changed |= input_double("horizontal fov (deg)", s.camera.horizontal_fov_deg, 10.0, 150.0, "%.0f");
    }
    if (!apply_error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", apply_error.c_str());
    return changed;
}

bool draw_presets(tracker::TrackerSettings& settings, PresetPanel& panel) {
    bool loaded = false;
    ImGui::InputText("preset file", &panel.path);
    if (ImGui::Button("Save preset")) panel.message = save_preset(settings, panel.path);
    ImGui::SameLine();
    if (ImGui::Button("Load preset")) loaded = load_preset(panel.path, settings, panel.message);
    if (!panel.message.empty()) ImGui::TextWrapped("%s", panel.message.c_str());
    return loaded;
}

void draw_timing(const TimingHistory& h, const std::string& device, Rect* drawn) {
    if (drawn != nullptr) {
        const ImVec2 p = ImGui::GetWindowPos(), sz = ImGui::GetWindowSize();
        *drawn = {p.x, p.y, sz.x, sz.y};
    }
    ImGui::Text("%.1f fps   %s", h.fps(), device.c_str());
    // Stacked bars, one column per frame, oldest left: the stage breakdown of every kept frame.
    const ImVec2 size(ImGui::GetContentRegionAvail().x, 110.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), IM_COL32(20, 20, 24, 255));
    double peak = 1.0;
    for (std::size_t i = 0; i < h.size(); ++i) {
        double sum = 0;
        for (std::size_t s = 0; s < k_stage_count; ++s) sum += h.at(i).ms[s];
        peak = std::max(peak, sum);
    }
    const float column = size.x / static_cast<float>(h.capacity());
    for (std::size_t i = 0; i < h.size(); ++i) {
        const float x0 = origin.x + size.x - column * static_cast<float>(h.size() - i);
        float y = origin.y + size.y;
        for (std::size_t s = 0; s < k_stage_count; ++s) {
            const float height = static_cast<float>(h.at(i).ms[s] / peak) * size.y;
            if (height <= 0.0f) continue;
            draw->AddRectFilled(ImVec2(x0, y - height), ImVec2(x0 + std::max(column, 1.0f), y),
                                stage_colour(static_cast<Stage>(s)));
            y -= height;
        }
    }
    ImGui::Dummy(size);
    ImGui::Text("scale: %.1f ms", peak);
    if (h.size() == 0) return;
    const FrameTiming& last = h.latest();
    for (std::size_t s = 0; s < k_stage_count; ++s) {
        const auto stage = static_cast<Stage>(s);
        ImGui::ColorButton(std::string(to_string(stage)).c_str(), ImGui::ColorConvertU32ToFloat4(stage_colour(stage)),
                           ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
        ImGui::SameLine();
        const std::vector<float> values = h.series(stage);
        const std::vector<double> series(values.begin(), values.end());
        ImGui::Text("%-10s %7.2f ms  (median %.2f)", std::string(to_string(stage)).c_str(), last[stage],
                    percentile(series, 50));
    }
    const std::vector<float> frame_ms = [&] {
        std::vector<float> v(h.size());
        for (std::size_t i = 0; i < h.size(); ++i) v[i] = static_cast<float>(h.at(i).frame_ms);
        return v;
    }();
    ImGui::PlotLines("frame ms", frame_ms.data(), static_cast<int>(frame_ms.size()), 0, nullptr, 0.0f, FLT_MAX,
                     ImVec2(0, 40));
}

void draw_detections(const tracker::FrameResult& result) {
    ImGui::Text("frame %lld: %zu detections, %zu swarms", result.frame, result.detections.size(), result.swarms.size());
    if (!ImGui::BeginTable("detections", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY,
                           ImVec2(0, 160))) {
        return;
    }
    for (const char* h : {"track", "category", "class", "fitness", "z (m)", "box"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& d : result.detections) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        d.track_id >= 0 ? ImGui::Text("#%d", d.track_id) : ImGui::TextUnformatted("-");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(std::string(tracker::to_string(d.category)).c_str());
        ImGui::TableNextColumn();
        d.class_id >= 0 ? ImGui::Text("%s %.2f", d.class_name.c_str(), d.class_confidence)
                        : ImGui::TextUnformatted("unknown");
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", d.fitness);
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", d.pose.z);
        ImGui::TableNextColumn();
        ImGui::Text("%.0f,%.0f %.0fx%.0f", d.box.x, d.box.y, d.box.width, d.box.height);
    }
    ImGui::EndTable();
}

void draw_playback(PlaybackState& p, const SourceInfo& src, OverlayOptions& overlay) {
    ImGui::TextWrapped("%s", src.description.c_str());
    if (src.live) {
        ImGui::Text("live: %lld frames dropped", src.dropped);
    } else if (src.skipped > 0) {
        ImGui::Text("%lld undecodable frames skipped", src.skipped);
    }
    if (ImGui::Button(p.paused ? "Play (space)" : "Pause (space)")) p.paused = !p.paused;
    ImGui::SameLine();
    if (ImGui::Button("Step (right)")) {
        p.paused = true;
        p.step_requested = true;
    }
    if (src.seekable && src.frame_count > 0) {
        int position = static_cast<int>(std::min(src.position, src.frame_count - 1));
        if (ImGui::SliderInt("frame", &position, 0, static_cast<int>(src.frame_count - 1))) p.seek_to = position;
        ImGui::SliderFloat("speed", &p.speed, 0.0f, 4.0f, p.speed <= 0.0f ? "unpaced" : "%.2fx");
    }
    ImGui::Separator();
    ImGui::Checkbox("outlines", &overlay.outlines);
    ImGui::SameLine();
    ImGui::Checkbox("labels", &overlay.labels);
    ImGui::Checkbox("particles", &overlay.particles);
    ImGui::SameLine();
    ImGui::Checkbox("best pose", &overlay.best_pose);
    ImGui::SliderFloat("point size", &overlay.point_size, 1.0f, 12.0f, "%.0f px");
}

RecordAction draw_recording(RecordPanel& panel, bool recording, long long frames) {
    RecordAction action = RecordAction::None;
    if (recording) {
        ImGui::Text("recording %s: %lld frames", panel.path.c_str(), frames);
        if (ImGui::Button("Stop recording")) action = RecordAction::Stop;
    } else {
        ImGui::InputText("video file", &panel.path);
        if (ImGui::Button("Record")) action = RecordAction::Start;
    }
    if (!panel.message.empty()) ImGui::TextWrapped("%s", panel.message.c_str());
    return action;
}

} // namespace app::gui
