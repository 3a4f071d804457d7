// The canonical Dear ImGui loop (example_glfw_opengl3): poll events -> new frame -> tracker step ->
// build UI -> render -> draw frame, overlay, UI -> swap. Input the UI wants (io.WantCapture*) never
// reaches the app's own shortcuts.
#include "gui/gui_app.h"

#define GLFW_INCLUDE_NONE // GL comes from gui/gl.h (core profile prototypes)
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/overlay_geometry.h"
#include "gui/panels.h"
#include "gui/platform_glfw.h"
#include "gui/renderer_gl.h"
#include "gui/screenshot.h"

namespace app {
namespace {
using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

constexpr float k_panel_width = 420.0f;
constexpr float k_timing_height = 330.0f;

// The frame keeps its aspect ratio inside the area left of the panels.
gui::Rect frame_rect(cv::Size image, float width, float height) {
    const float area_w = std::max(1.0f, width - k_panel_width), area_h = std::max(1.0f, height);
    if (image.empty()) return {0, 0, area_w, area_h};
    const float scale = std::min(area_w / static_cast<float>(image.width), area_h / static_cast<float>(image.height));
    const float w = scale * static_cast<float>(image.width), h = scale * static_cast<float>(image.height);
    return {(area_w - w) * 0.5f, (area_h - h) * 0.5f, w, h};
}

gui::SourceInfo source_info(TrackSession& s) {
    FrameSource& src = s.pipeline().source();
    gui::SourceInfo info;
    info.description = src.description();
    info.device = s.pipeline().tracker().backend_name();
    info.live = src.live();
    info.seekable = src.seekable();
    info.frame_count = src.frame_count();
    info.position = s.current().frame.index;
    info.dropped = src.dropped();
    info.skipped = src.skipped();
    info.fps = src.fps();
    return info;
}

void handle_keys(gui::Window& window, TrackSession& session) {
    // Poll every key each frame so edge detection stays right, then ignore them if ImGui owns the keyboard.
    const bool space = window.key_pressed(GLFW_KEY_SPACE), right = window.key_pressed(GLFW_KEY_RIGHT);
    const bool particles = window.key_pressed(GLFW_KEY_P), quit = window.key_pressed(GLFW_KEY_ESCAPE);
    if (ImGui::GetIO().WantCaptureKeyboard) return;
    PlaybackState& p = session.playback();
    if (space) p.paused = !p.paused;
    if (right) {
        p.paused = true;
        p.step_requested = true;
    }
    if (particles) session.overlay().particles = !session.overlay().particles;
    if (quit) window.request_close();
}

} // namespace

int run_gui(const TrackOptions& options) {
    TrackSession session(options);
    gui::Window window("swarmtrack - " + session.pipeline().source().description(), options.window_width,
                       options.window_height);
    ImGui_ImplOpenGL3_Init(gui::k_glsl_version);
    gui::FrameRenderer renderer;
    OverlayGeometry overlay;
    gui::PresetPanel presets{options.preset, {}};
    gui::RecordPanel record;
    if (!options.record.empty()) record.path = options.record;
    std::string apply_error;
    std::vector<double> overlay_ms;
    gui::Rect timing_rect;
    bool shot_taken = false;

    while (!window.should_close()) {
        const bool fresh = session.tick();
        if (!fresh) glfwWaitEventsTimeout(0.005); // nothing new: do not spin a core the tracker needs
        window.poll_events();
        handle_keys(window, session);

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        const ImVec2 display = ImGui::GetIO().DisplaySize;
        ImGui::SetNextWindowPos(ImVec2(display.x - k_panel_width, 0), ImGuiCond_Always);
        ImGui::SetNextWindowSize(ImVec2(k_panel_width, k_timing_height), ImGuiCond_Always);
        ImGui::Begin("Timing", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
        gui::draw_timing(session.history(), session.pipeline().tracker().backend_name(), &timing_rect);
        ImGui::End();
        ImGui::SetNextWindowPos(ImVec2(display.x - k_panel_width, k_timing_height), ImGuiCond_Always);
        ImGui::SetNextWindowSize(ImVec2(k_panel_width, std::max(100.0f, display.y - k_timing_height)), ImGuiCond_Always);
        ImGui::Begin("Controls", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
        if (ImGui::BeginTabBar("tabs")) {
            if (ImGui::BeginTabItem("Playback")) {
                gui::draw_playback(session.playback(), source_info(session), session.overlay());
                ImGui::Separator();
                const auto action = gui::draw_recording(record, session.recorder().recording(), session.recorder().frames());
                try {
                    if (action == gui::RecordAction::Start) {
                        const double fps = session.pipeline().source().fps() > 0 ? session.pipeline().source().fps() : 30.0;
                        session.recorder().start(record.path, session.pipeline().source().size(), fps);
                        record.message.clear();
                    } else if (action == gui::RecordAction::Stop) {
                        session.recorder().stop();
                        record.message = "saved " + record.path;
                    }
                } catch (const std::exception& e) {
                    record.message = std::string("error: ") + e.what();
                }
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("Detections")) {
                gui::draw_detections(session.current().result);
                ImGui::EndTabItem();
            }
            if (ImGui::BeginTabItem("Parameters")) {
                bool changed = gui::draw_presets(session.edited, presets);
                ImGui::Separator();
                changed |= gui::draw_params(session.edited, apply_error);
                if (changed) apply_error = session.apply_edited();
                ImGui::EndTabItem();
            }
            ImGui::EndTabBar();
        }
        ImGui::End();

        // Detection labels and a pixel readout under the mouse, on the background layer over the frame.
        const gui::Rect fr = frame_rect(session.pipeline().source().size(), display.x, display.y);
        const cv::Size image = session.pipeline().source().size();
        const float scale = fr.width / static_cast<float>(std::max(1, image.width));
        ImDrawList* background = ImGui::GetBackgroundDrawList();
        const auto render_t0 = Clock::now();
        const auto build_t0 = Clock::now();
        build_overlay(session.current().result, session.pipeline().camera(), session.overlay(), overlay);
        const double build_ms = ms_since(build_t0);
        for (const auto& l : overlay.labels) {
            const ImVec2 at(fr.x + l.x * scale, fr.y + std::max(0.0f, l.y) * scale);
            background->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 255), l.text.c_str());
            background->AddText(at, IM_COL32(255, 255, 255, 255), l.text.c_str());
        }
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        if (options.screenshot.empty() && !ImGui::GetIO().WantCaptureMouse && mouse.x >= fr.x && mouse.y >= fr.y && mouse.x < fr.x + fr.width &&
            mouse.y < fr.y + fr.height) {
            char text[48];
            std::snprintf(text, sizeof text, "(%.0f, %.0f)", (mouse.x - fr.x) / scale, (mouse.y - fr.y) / scale);
            ImGui::GetForegroundDrawList()->AddText(ImVec2(mouse.x + 14, mouse.y + 8), IM_COL32(255, 255, 255, 255), text);
        }
        ImGui::Render();

        int fb_w = 0, fb_h = 0, win_w = 0, win_h = 0;
        window.framebuffer_size(fb_w, fb_h);
        window.window_size(win_w, win_h);
        const float px = win_w > 0 ? static_cast<float>(fb_w) / static_cast<float>(win_w) : 1.0f; // HiDPI
        glViewport(0, 0, fb_w, fb_h);
        glClearColor(0.08f, 0.08f, 0.10f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        if (fresh && session.has_frame()) renderer.upload(session.current().frame.bgr);
        const gui::Viewport vp{static_cast<int>(fr.x * px), static_cast<int>(static_cast<float>(fb_h) - (fr.y + fr.height) * px),
                               static_cast<int>(fr.width * px), static_cast<int>(fr.height * px)};
        renderer.draw_frame(vp);
        if (options.profile) glFinish();
        const auto overlay_t0 = Clock::now();
        renderer.set_overlay(overlay);
        renderer.draw_overlay(vp, session.overlay().point_size * px, 2.0f * px);
        if (options.profile) {
            glFinish();
            if (fresh) overlay_ms.push_back(build_ms + ms_since(overlay_t0));
        }
        glViewport(0, 0, fb_w, fb_h);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (options.profile) glFinish();
        session.finish_frame(ms_since(render_t0));

        if (!options.screenshot.empty() && session.frames_done() >= options.frames) {
            gui::ShotLayout layout{fr, timing_rect, static_cast<long long>(overlay.points.size()),
                                   static_cast<long long>(session.current().result.detections.size()),
                                   static_cast<long long>(overlay.lines.size() / 2), session.frames_done(), px};
            gui::save_screenshot(options.screenshot, fb_w, fb_h, layout);
            shot_taken = true;
            break;
        }
        window.swap();
        if (options.frames > 0 && session.frames_done() >= options.frames) break;
        if (session.ended() && (options.frames > 0 || !options.screenshot.empty())) break;
    }
    session.recorder().stop();
    ImGui_ImplOpenGL3_Shutdown();
    if (!options.screenshot.empty() && !shot_taken) {
        throw std::runtime_error("--screenshot: the input ended after " + std::to_string(session.frames_done()) +
                                 " frames, before --frames " + std::to_string(options.frames));
    }
    if (options.profile && !overlay_ms.empty()) {
        std::printf("overlay: %.3f ms median, %.3f ms p95 over %zu frames (%lld points, %lld line vertices)\n",
                    percentile(overlay_ms, 50), percentile(overlay_ms, 95), overlay_ms.size(),
                    static_cast<long long>(overlay.points.size()), static_cast<long long>(overlay.lines.size()));
    }
    std::printf("track: %lld frames, %.1f fps\n", session.frames_done(), session.history().fps());
    return 0;
}

} // namespace app
