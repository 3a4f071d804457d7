// synthetic[:scene]: the tracker's scene generator. Live, a producer thread renders at the chosen frame
// rate like a camera would (frames the consumer was too slow for are dropped and counted) and the scene
// restarts when it reaches its natural length; not live, it hands out its frames as fast as asked.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "scenes/synthetic.h"
#include "sources/frame_source.h"
#include "sources/live_buffer.h"

namespace app {
namespace {
using Clock = std::chrono::steady_clock;

class SyntheticSource : public FrameSource {
public:
    SyntheticSource(const std::string& scene, const SourceOptions& o) : m_options(o) {
        try {
            m_scene = tracker::create_scene(scene, o.synthetic_size.width, o.synthetic_size.height, o.seed);
        } catch (const std::exception& e) {
            throw std::runtime_error("input synthetic:" + scene + ": " + e.what());
        }
        m_name = m_scene->name();
        m_size = {m_scene->camera().width, m_scene->camera().height};
        m_length = o.synthetic_frames > 0 ? o.synthetic_frames : m_scene->frame_count();
        m_live = o.synthetic_live && o.synthetic_fps > 0;
        if (m_live) m_thread = std::thread([this] { produce(); });
    }
    ~SyntheticSource() override {
        m_stop = true;
        m_buffer.close();
        if (m_thread.joinable()) m_thread.join();
    }

    bool read(Frame& frame) override {
        const auto t0 = Clock::now();
        if (m_live) {
            if (!m_buffer.take(frame)) return false;
        } else {
            if (m_next >= m_length) return false;
            frame.bgr = m_scene->next().bgr;
            frame.index = m_next++;
        }
        frame.capture_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        return true;
    }
    std::string description() const override {
        return "synthetic:" + m_name + " (" + std::to_string(size().width) + "x" +
               std::to_string(size().height) + (m_live ? ", live at " + std::to_string(int(m_options.synthetic_fps)) + " fps" : "") + ")";
    }
    cv::Size size() const override { return m_size; }
    double fps() const override { return m_options.synthetic_fps > 0 ? m_options.synthetic_fps : 30; }
    bool live() const override { return m_live; }
    long long frame_count() const override { return m_live ? -1 : m_length; }
    long long dropped() const override { return m_buffer.dropped(); }

private:
    void produce() {
        const auto period = std::chrono::duration<double>(1.0 / m_options.synthetic_fps);
        auto due = Clock::now();
        long long n = 0, in_scene = 0;
        while (!m_stop) {
            if (in_scene == m_scene->frame_count()) { // loop the scene: a live source never ends
                m_scene = tracker::create_scene(m_name, m_size.width, m_size.height, m_options.seed);
                in_scene = 0;
            }
            Frame f;
            f.bgr = m_scene->next().bgr;
            f.index = n++;
            ++in_scene;
            m_buffer.put(std::move(f));
            due += std::chrono::duration_cast<Clock::duration>(period);
            const auto now = Clock::now();
            if (due < now - std::chrono::seconds(1)) due = now; // fell far behind: do not burst to catch up
            std::this_thread::sleep_until(due);
        }
    }

    SourceOptions m_options;
    std::string m_name; // cached: the producer thread replaces m_scene when it loops
    cv::Size m_size;
    std::unique_ptr<tracker::SceneGenerator> m_scene;
    long long m_length = 0;
    long long m_next = 0;
    bool m_live = false;
    LatestFrame m_buffer;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace

std::unique_ptr<FrameSource> open_synthetic(const std::string& scene, const SourceOptions& options) {
    return std::make_unique<SyntheticSource>(scene, options);
}

} // namespace app
