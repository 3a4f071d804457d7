// Synthetic scenes with exact ground truth: signs approach as from a vehicle driving at constant speed.
#include "scenes/synthetic.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

#include "render.h"
#include "scene_spec.h"
#include "tracker/model.h"
#include "tracker/pose.h"

namespace tracker {
namespace {

constexpr double k_fov = 60.0;
constexpr double k_exit_depth = 5.5; // signs closer than this have passed the search frustum

struct SignPlan {
    int id;
    Category category;
    long long spawn;
    double x, y, z0; // camera frame at the spawn frame
    double yaw, pitch, roll;
    bool occluded;
    double occluder_dx; // pole position across the sign, metres
};

struct Distractor {
    ColourClass colour;
    bool round;
    double x, y, z0, w, h;
};

class Scene : public SceneGenerator {
public:
    Scene(SceneSpec spec, int width, int height, unsigned long long seed, BackgroundSource background)
        : m_spec(std::move(spec)), m_camera(Camera::from_fov(width, height, k_fov)), m_seed(seed),
          m_background(std::move(background)),
          m_models(load_sign_models("", {Category::Prohibitory, Category::Danger, Category::Mandatory,
                                         Category::GiveWay, Category::Stop})),
          m_rng(seed ^ 0x9E3779B97F4A7C15ULL) {
        plan();
    }

    long long frame_count() const override { return m_spec.frames; }
    const Camera& camera() const override { return m_camera; }
    std::string name() const override { return m_spec.name; }

    SceneFrame next() override {
        const long long t = m_frame++;
        SceneFrame out;
        out.bgr.create(m_camera.height, m_camera.width, CV_8UC3);
        cv::Mat user;
        if (m_background && m_background(user) && !user.empty()) {
            cv::resize(user, out.bgr, out.bgr.size(), 0, 0, cv::INTER_AREA);
        } else {
            m_background = nullptr;
            render::road_background(out.bgr, m_camera, m_spec.speed * static_cast<double>(t), m_seed);
        }
        const double gain = m_spec.gain * (1.0 + m_spec.gain_swing * std::sin(2 * CV_PI * t / 90.0));
        if (std::abs(gain - 1.0) > 1e-9) {
            out.bgr.convertTo(out.bgr, -1, gain);
        }
        draw_objects(out, t, gain);
        if (m_spec.blur_sigma > 0) {
            cv::GaussianBlur(out.bgr, out.bgr, cv::Size(), m_spec.blur_sigma);
        }
        if (m_spec.noise_sigma > 0) {
            cv::Mat noise(out.bgr.size(), CV_16SC3);
            m_rng.fill(noise, cv::RNG::NORMAL, 0, m_spec.noise_sigma);
            cv::Mat wide;
            out.bgr.convertTo(wide, CV_16SC3);
            wide += noise;
            wide.convertTo(out.bgr, CV_8UC3);
        }
        return out;
    }

private:
    void plan() {
        cv::RNG rng(m_seed * 6364136223846793005ULL + 1442695040888963407ULL);
        for (int i = 0; i < m_spec.signs; ++i) {
            SignPlan p{};
            p.id = i + 1;
            p.category = static_cast<Category>((i + static_cast<int>(m_seed % 5)) % k_category_count);
            p.spawn = static_cast<long long>(i / m_spec.burst) * m_spec.spawn_every;
            const int slot = i % m_spec.burst; // signs of a burst stand apart, mostly on the right
            const double side = (slot == 1 || rng.uniform(0.0, 1.0) < 0.2) ? -1.0 : 1.0;
            const Pose start = render::roadside_sign_pose(rng, side);
            p.x = start.x + (slot == 2 ? 2.0 : 0.0);
            p.y = start.y;
            p.z0 = start.z + 6.0 * slot;
            p.yaw = start.yaw;
            p.pitch = start.pitch;
            p.roll = start.roll;
            p.occluded = rng.uniform(0.0, 1.0) < m_spec.occluder_chance;
            p.occluder_dx = rng.uniform(-0.3, 0.3);
            m_plans.push_back(p);
        }
        const ColourClass colours[] = {ColourClass::Red, ColourClass::Blue, ColourClass::Yellow};
        for (int i = 0; i < m_spec.distractors; ++i) {
            Distractor d{};
            d.colour = colours[i % 3];
            d.round = i % 2 == 0;
            d.x = (i % 2 == 0 ? 1 : -1) * rng.uniform(2.5, 7.0);
            d.y = rng.uniform(-0.5, 0.9);
            d.z0 = rng.uniform(15.0, 70.0);
            d.w = rng.uniform(0.6, 1.8);
            d.h = rng.uniform(0.5, 1.2);
            m_distractors.push_back(d);
        }
    }

    const SignModel& model(Category c) const {
        if (const SignModel* m = base_model(m_models, c)) {
            return *m;
        }
        throw std::logic_error("scene: no model for a category");
    }

    struct Placed {
        double z;
        int kind; // 0 sign, 1 occluder, 2 distractor
        std::size_t index;
        Pose pose;
    };

    void draw_objects(SceneFrame& out, long long t, double gain) {
        std::vector<Placed> items;
        for (std::size_t i = 0; i < m_plans.size(); ++i) {
            const auto& p = m_plans[i];
            const double z = p.z0 - m_spec.speed * static_cast<double>(t - p.spawn);
            if (t < p.spawn || z < k_exit_depth) {
                continue;
            }
            Pose pose{p.x, p.y, z, p.yaw, p.pitch, p.roll};
            items.push_back({z, 0, i, pose});
            if (p.occluded) { // a thin pole 0.6 m in front of the sign
                items.push_back({z - 0.6, 1, i, Pose{p.x + p.occluder_dx, p.y, z - 0.6, 0, 0, 0}});
            }
        }
        for (std::size_t i = 0; i < m_distractors.size(); ++i) {
            const auto& d = m_distractors[i];
            const double z = std::fmod(d.z0 - m_spec.speed * static_cast<double>(t) + 600.0, 70.0) + 6.0;
            items.push_back({z, 2, i, Pose{d.x, d.y, z, 0, 0, 0}});
        }
        std::sort(items.begin(), items.end(), [](const Placed& a, const Placed& b) { return a.z > b.z; });
        const double sign_gain = gain < 1.0 ? std::max(gain, m_spec.sign_gain) : gain;
        std::vector<std::vector<cv::Point2f>> shapes(items.size());
        for (std::size_t k = 0; k < items.size(); ++k) {
            const auto& it = items[k];
            if (it.kind == 0) {
                const SignModel& m = model(m_plans[it.index].category);
                render_sign(out.bgr, m_camera, m, it.pose, sign_gain);
                shapes[k] = project_points(m_camera, it.pose, m.outline);
            } else {
                const bool pole = it.kind == 1;
                const auto* d = pole ? nullptr : &m_distractors[it.index];
                const double w = pole ? 0.1 : d->w, h = pole ? 1.4 : d->h;
                std::vector<cv::Point3f> poly;
                const int n = (!pole && d->round) ? 32 : 4;
                for (int i = 0; i < n; ++i) {
                    const double a = 2 * CV_PI * (i + 0.5) / n;
                    const double cx = n == 4 ? (i == 0 || i == 3 ? 0.5 : -0.5) : 0.5 * std::cos(a);
                    const double cy = n == 4 ? (i < 2 ? 0.5 : -0.5) : 0.5 * std::sin(a);
                    poly.emplace_back(static_cast<float>(cx * w), static_cast<float>(cy * h - (pole ? 0.3 : 0.0)), 0.f);
                }
                shapes[k] = project_points(m_camera, it.pose, poly);
                const cv::Scalar colour = pole ? cv::Scalar(45, 60, 55) : render::paint(d->colour);
                cv::fillPoly(out.bgr, std::vector<std::vector<cv::Point>>{render::fixed_point(shapes[k])},
                             colour * gain, cv::LINE_AA, render::k_shift);
            }
        }
        // Ground truth: what nearer objects and the image border leave visible of each sign.
        cv::Mat nearer = cv::Mat::zeros(m_camera.height, m_camera.width, CV_8U);
        for (std::size_t k = items.size(); k-- > 0;) {
            const auto& it = items[k];
            if (it.kind == 0) {
                const auto& p = m_plans[it.index];
                GroundTruth g;
                g.frame = t;
                g.id = p.id;
                g.category = p.category;
                g.pose = it.pose;
                g.visible = 1.0 - render::hidden_fraction(shapes[k], nearer);
                g.box = bounding_box(shapes[k]) &
                        cv::Rect2f(0.f, 0.f, static_cast<float>(m_camera.width), static_cast<float>(m_camera.height));
                if (g.visible > 0.0 && g.box.area() > 0.f) {
                    out.truth.push_back(g);
                }
            }
            cv::fillPoly(nearer, std::vector<std::vector<cv::Point>>{render::fixed_point(shapes[k])}, cv::Scalar(255),
                         cv::LINE_8, render::k_shift);
        }
        std::sort(out.truth.begin(), out.truth.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    }

    SceneSpec m_spec;
    Camera m_camera;
    unsigned long long m_seed;
    BackgroundSource m_background;
    std::vector<SignModel> m_models;
    cv::RNG m_rng;
    std::vector<SignPlan> m_plans;
    std::vector<Distractor> m_distractors;
    long long m_frame = 0;
};

} // namespace

std::vector<std::string> scene_names() { return scene_spec_names(); }

std::unique_ptr<SceneGenerator> create_scene(const std::string& name, int width, int height,
                                             unsigned long long seed, BackgroundSource background) {
    if (width < 64 || height < 48) {
        throw std::invalid_argument("scene size " + std::to_string(width) + "x" + std::to_string(height) +
                                    " is too small; use at least 64x48");
    }
    return std::make_unique<Scene>(scene_spec(name), width, height, seed, std::move(background));
}

std::unique_ptr<SceneGenerator> create_scene(const std::string& name, int width, int height,
                                             unsigned long long seed, const std::string& background_video) {
    if (!background_video.empty()) {
        throw std::invalid_argument("background video " + background_video +
                                    ": open it with the app (swarmtrack synth --background) and pass a BackgroundSource");
    }
    return create_scene(name, width, height, seed, BackgroundSource{});
}

} // namespace tracker
