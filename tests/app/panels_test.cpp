// The GUI panels without a window: their state logic directly, and the panels themselves inside a bare
// ImGui context (no platform or renderer backend, like Dear ImGui's example_null).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <imgui.h>

#include "gui/panels.h"

namespace app::gui {
namespace {
namespace fs = std::filesystem;
using tracker::Category;

fs::path temp_file(const std::string& name) {
    return fs::temp_directory_path() / ("swarmtrack-panels-" + std::to_string(::getpid()) + "-" + name);
}

class NullFrame : public ::testing::Test {
protected:
    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(1280, 720);
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h); // builds the atlas, as a renderer backend would
    }
    void TearDown() override { ImGui::DestroyContext(); }
    template <class F> void frame(F&& body) {
        ImGui::NewFrame();
        ImGui::Begin("test");
        body();
        ImGui::End();
        ImGui::Render();
    }
};

TEST(PanelLogic, CategoriesStayInCanonicalOrderWithoutDuplicates) {
    std::vector<Category> list = {Category::Stop, Category::Danger};
    set_category_enabled(list, Category::Prohibitory, true);
    EXPECT_EQ(list, (std::vector<Category>{Category::Prohibitory, Category::Danger, Category::Stop}));
    set_category_enabled(list, Category::Danger, true);
    EXPECT_EQ(list.size(), 3u);
    set_category_enabled(list, Category::Stop, false);
    EXPECT_EQ(list, (std::vector<Category>{Category::Prohibitory, Category::Danger}));
    EXPECT_TRUE(category_enabled(list, Category::Danger));
    EXPECT_FALSE(category_enabled(list, Category::Stop));
}

TEST(PanelLogic, PresetRoundTrips) {
    const auto path = temp_file("roundtrip.json").string();
    tracker::TrackerSettings s;
    s.search.particles = 96;
    s.search.generations = 17;
    s.search.w = 0.5;
    s.search.topology = swarm::Topology::Global;
    s.fitness.detect_threshold = 0.42;
    set_category_enabled(s.signs.categories, Category::Stop, false);
    EXPECT_EQ(save_preset(s, path), "saved " + path);
    tracker::TrackerSettings loaded;
    loaded.keep_particles = true;
    std::string message;
    ASSERT_TRUE(load_preset(path, loaded, message)) << message;
    EXPECT_EQ(loaded.search.particles, 96);
    EXPECT_EQ(loaded.search.generations, 17);
    EXPECT_DOUBLE_EQ(loaded.search.w, 0.5);
    EXPECT_EQ(loaded.search.topology, swarm::Topology::Global);
    EXPECT_DOUBLE_EQ(loaded.fitness.detect_threshold, 0.42);
    EXPECT_FALSE(category_enabled(loaded.signs.categories, Category::Stop));
    EXPECT_TRUE(loaded.keep_particles) << "the view's own choice survives loading a preset";
    fs::remove(path);
}

TEST(PanelLogic, BadPresetNamesTheKeyAndChangesNothing) {
    const auto path = temp_file("bad.json").string();
    for (const char* body : {R"({"particles": "many"})", R"({"partcles": 64})"}) {
        std::ofstream(path) << body;
        tracker::TrackerSettings s;
        s.search.particles = 33;
        std::string message;
        EXPECT_FALSE(load_preset(path, s, message));
        EXPECT_EQ(s.search.particles, 33);
        EXPECT_NE(message.find(std::string(body).find("partcles") != std::string::npos ? "partcles" : "particles"),
                  std::string::npos)
            << message;
    }
    std::string message;
    tracker::TrackerSettings s;
    EXPECT_FALSE(load_preset(temp_file("missing.json").string(), s, message));
    EXPECT_EQ(save_preset(s, "/proc/no/such/dir/p.json").rfind("error:", 0), 0u);
    fs::remove(path);
}

TEST(PanelLogic, StrategyChoicesStartWithAuto) {
    const auto choices = strategy_choices();
    ASSERT_FALSE(choices.empty());
    EXPECT_EQ(choices.front(), "auto");
    EXPECT_NE(std::find(choices.begin(), choices.end(), "cpu-serial"), choices.end());
}

TEST_F(NullFrame, ParamsPanelLeavesSettingsAloneWithoutInput) {
    tracker::TrackerSettings s;
    const tracker::TrackerSettings before = s;
    bool changed = true;
    for (int i = 0; i < 3; ++i) frame([&] { changed = draw_params(s, "backend cuda: no device"); });
    EXPECT_FALSE(changed);
    EXPECT_EQ(s.search.particles, before.search.particles);
    EXPECT_EQ(s.signs.categories, before.signs.categories);
    EXPECT_EQ(s.engine.strategy, before.engine.strategy);
}

TEST_F(NullFrame, EveryPanelDrawsFromPlainState) {
    TimingHistory history(8);
    for (int i = 0; i < 12; ++i) {
        FrameTiming t;
        t[Stage::Search] = 2 + i % 3;
        t[Stage::Render] = 1;
        t.frame_ms = 16;
        history.push(t);
    }
    tracker::FrameResult result;
    tracker::Detection d;
    d.track_id = 1;
    result.detections.push_back(d);
    PlaybackState playback;
    OverlayOptions overlay;
    SourceInfo info{"video clip.mp4", "CPU", false, true, 100, 5, 0, 2, 25};
    RecordPanel record;
    Rect timing;
    RecordAction action = RecordAction::Start;
    // Twice: ImGui hides a window's first frame while it measures it.
    for (int i = 0; i < 2; ++i) frame([&] {
        draw_timing(history, "CPU", &timing);
        draw_detections(result);
        draw_playback(playback, info, overlay);
        action = draw_recording(record, false, 0);
    });
    EXPECT_GT(timing.width, 0.0f);
    EXPECT_EQ(action, RecordAction::None);
    EXPECT_FALSE(playback.paused);
    EXPECT_EQ(playback.seek_to, -1);
    EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 100) << "the panels produced geometry";
}

TEST(PanelLogic, StageColoursAreDistinctFromOverlayColours) {
    for (std::size_t s = 0; s < k_stage_count; ++s) {
        const unsigned int c = stage_colour(static_cast<Stage>(s));
        const unsigned r = c & 0xFF, g = (c >> 8) & 0xFF, b = (c >> 16) & 0xFF;
        EXPECT_FALSE(r == 0 && g == 255 && b == 0);
        EXPECT_FALSE((r == 0 || r == 255 || r == 128) && (g == 0 || g == 255 || g == 128) && (b == 0 || b == 255 || b == 128));
    }
}

} // namespace
} // namespace app::gui
