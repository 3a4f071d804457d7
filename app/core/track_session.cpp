#include "core/track_session.h"

namespace app {
using Clock = std::chrono::steady_clock;

std::unique_ptr<FrameSource> open_track_source(const TrackOptions& o, unsigned long long seed) {
    SourceOptions so;
    so.synthetic_live = o.fps > 0;
    so.synthetic_fps = o.fps;
    so.synthetic_size = {o.width, o.height};
    so.synthetic_frames = o.frames; // unpaced synthetic input: as many frames as asked for
    so.seed = seed;
    return open_source(o.input, so);
}

namespace {
tracker::TrackerSettings with_particles(tracker::TrackerSettings s) {
    s.keep_particles = true; // the overlay draws every swarm
    return s;
}
} // namespace

TrackSession::TrackSession(const TrackOptions& options)
    : edited(with_particles(resolve_settings(options.config, options.backend))), m_options(options),
      m_pipeline(open_track_source(options, edited.search.seed), edited), m_last_finish(Clock::now()) {
    edited = m_pipeline.settings(); // auto resolved to the backend actually used
    if (!options.record.empty()) {
        const double fps = m_pipeline.source().fps() > 0 ? m_pipeline.source().fps() : 30.0;
        m_recorder.start(options.record, m_pipeline.source().size(), fps);
    }
}

std::string TrackSession::apply_edited() {
    try {
        edited.keep_particles = true;
        m_pipeline.apply(edited);
        edited = m_pipeline.settings();
        m_playback.settings_dirty = true;
        return {};
    } catch (const std::exception& e) {
        edited = m_pipeline.settings();
        return e.what();
    }
}

bool TrackSession::tick() {
    m_fresh = false;
    if (m_ended && m_playback.seek_to < 0) return false; // a file source that ended can still seek back
    m_ended = false;
    FrameSource& source = m_pipeline.source();
    if (m_playback.seek_to >= 0) {
        if (source.seekable()) source.seek(m_playback.seek_to);
        m_playback.seek_to = -1;
        m_playback.settings_dirty = false;
        m_pipeline.tracker().reset(); // tracks do not survive a jump in time
    } else if (m_playback.paused && m_playback.settings_dirty && has_frame()) {
        m_playback.settings_dirty = false;
        m_current = m_pipeline.reprocess(m_current.frame);
        m_fresh = true;
        return true;
    } else if (!m_playback.should_advance(source.live(), source.fps(), Clock::now())) {
        return false;
    }
    m_playback.settings_dirty = false;
    m_playback.mark_advanced(Clock::now());
    Step next;
    if (!m_pipeline.step(next)) {
        m_ended = true;
        return false;
    }
    m_current = std::move(next);
    m_fresh = true;
    return true;
}

void TrackSession::finish_frame(double render_ms) {
    if (!m_fresh) return;
    const auto now = Clock::now();
    m_current.timing[Stage::Render] = render_ms;
    m_current.timing.frame_ms = std::chrono::duration<double, std::milli>(now - m_last_finish).count();
    m_last_finish = now;
    m_history.push(m_current.timing);
    ++m_frames_done;
    if (m_recorder.recording()) {
        cv::Mat annotated = m_current.frame.bgr.clone();
        annotate(annotated, m_current.result, m_pipeline.camera(), m_overlay);
        m_recorder.write(annotated);
    }
    m_fresh = false;
}

} // namespace app
