// A scene of real sign appearances: signs cut from labelled real frames approach over a real road frame, with the
// exact ground truth of the synthetic scenes (the pose each appearance is drawn at).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

#include "render.h"
#include "scenes/synthetic.h"
#include "tracker/labels.h"
#include "tracker/model.h"
#include "tracker/pose.h"

namespace tracker {
namespace {

namespace fs = std::filesystem;

constexpr double k_fov = 60.0;
constexpr double k_exit_depth = 5.5; // as the synthetic scenes: closer signs have left the search frustum
constexpr float k_min_patch_px = 24.f; // smaller labelled signs hold too few pixels to be drawn larger
constexpr long long k_frames = 150;
constexpr double k_speed = 0.48;   // metres per frame (12 m/s at 25 fps)
constexpr int k_signs = 8;
constexpr int k_spawn_every = 18;
constexpr double k_zoom_per_frame = 0.002; // the background grows towards the horizon as the vehicle drives

struct Appearance {
    Category category;
    cv::Mat bgr; // the labelled box, which holds the whole sign border to border
};

struct Plan {
    int id;
    std::size_t appearance;
    long long spawn;
    Pose start; // at the spawn frame; the sign then comes closer along z
};

std::map<std::string, fs::path> images_by_key(const fs::path& dir) {
    std::map<std::string, fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (e.is_regular_file()) {
            out[image_key(e.path().filename().string())] = e.path();
        }
    }
    return out;
}

// Every labelled sign is covered with the mean colour of the ground around it, so the background's own signs
// (which the ground truth does not list) do not count as false positives.
void cover_signs(cv::Mat& bgr, const std::vector<cv::Rect2f>& boxes) {
    const cv::Rect frame(0, 0, bgr.cols, bgr.rows);
    for (const auto& b : boxes) {
        const cv::Point2f c = (b.tl() + b.br()) * 0.5f;
        auto grown = [&](float k) {
            return cv::Rect(cvRound(c.x - k * b.width / 2), cvRound(c.y - k * b.height / 2), cvRound(k * b.width),
                            cvRound(k * b.height)) &
                   frame;
        };
        const cv::Rect inner = grown(1.5f), outer = grown(2.5f);
        if (inner.area() <= 0) {
            continue;
        }
        cv::Mat ring(outer.size(), CV_8U, cv::Scalar(255));
        ring(inner - outer.tl()).setTo(0);
        const cv::Scalar ground = cv::mean(bgr(outer), ring);
        bgr(inner).setTo(ground);
        cv::GaussianBlur(bgr(outer), bgr(outer), cv::Size(), 0.1 * std::max(outer.width, outer.height));
    }
}

class RealScene : public SceneGenerator {
public:
    RealScene(const std::string& data_dir, int width, int height, unsigned long long seed, const ImageReader& read)
        : m_camera(Camera::from_fov(width, height, k_fov)), m_seed(seed),
          m_models(load_sign_models("", {Category::Prohibitory, Category::Danger, Category::Mandatory,
                                         Category::GiveWay, Category::Stop})),
          m_rng(seed ^ 0x9E3779B97F4A7C15ULL) {
        load(data_dir, read);
        plan();
    }

    long long frame_count() const override { return k_frames; }
    const Camera& camera() const override { return m_camera; }
    std::string name() const override { return "real"; }

    SceneFrame next() override {
        const long long t = m_frame++;
        SceneFrame out;
        const double zoom = 1.0 + k_zoom_per_frame * static_cast<double>(t);
        const cv::Point2f centre(0.5f * static_cast<float>(m_camera.width), 0.45f * static_cast<float>(m_camera.height));
        cv::warpAffine(m_background, out.bgr, cv::getRotationMatrix2D(centre, 0.0, zoom), m_background.size(),
                       cv::INTER_LINEAR, cv::BORDER_REFLECT);
        draw_signs(out, t);
        cv::Mat noise(out.bgr.size(), CV_16SC3), wide;
        m_rng.fill(noise, cv::RNG::NORMAL, 0, 2.0);
        out.bgr.convertTo(wide, CV_16SC3);
        wide += noise;
        wide.convertTo(out.bgr, CV_8UC3);
        return out;
    }

private:
    void load(const std::string& data_dir, const ImageReader& read) {
        const fs::path dir(data_dir), labels_path = dir / "labels.csv";
        if (!fs::is_regular_file(labels_path) || !fs::is_directory(dir / "images")) {
            throw std::invalid_argument("real scene: " + data_dir +
                                        " has no images/ and labels.csv; pass the GTSDB dev set's folder (--data)");
        }
        const LabelSet labels = read_labels_csv(labels_path.string());
        const auto files = images_by_key(dir / "images");
        std::map<std::string, std::vector<cv::Rect2f>> boxes_of;
        for (const auto& l : labels.labels) {
            boxes_of[l.image].push_back(l.box);
        }
        for (const auto& [key, boxes] : boxes_of) {
            const auto f = files.find(key);
            const bool wanted = std::any_of(boxes.begin(), boxes.end(), [](const cv::Rect2f& b) {
                return b.width >= k_min_patch_px;
            });
            if (f == files.end() || !wanted) {
                continue;
            }
            const cv::Mat img = read(f->second.string());
            if (img.empty()) {
                continue;
            }
            for (const auto& l : labels.labels) {
                const cv::Rect r = cv::Rect(l.box) & cv::Rect(0, 0, img.cols, img.rows);
                if (l.image == key && l.category && l.box.width >= k_min_patch_px && r.area() > 0) {
                    m_appearances.push_back({*l.category, img(r).clone()});
                }
            }
            m_backgrounds.push_back(f->first);
        }
        if (m_appearances.empty()) {
            throw std::invalid_argument("real scene: " + data_dir + " holds no labelled sign of a modelled category " +
                                        "at least 24 px wide; pass the GTSDB dev set's folder (--data)");
        }
        // One real road frame, its own signs covered, is the scene's background.
        cv::RNG rng(m_seed * 2862933555777941757ULL + 3037000493ULL);
        const std::string key = m_backgrounds[static_cast<std::size_t>(rng.uniform(0, static_cast<int>(m_backgrounds.size())))];
        cv::Mat bg = read(files.at(key).string());
        cover_signs(bg, boxes_of[key]);
        cv::resize(bg, m_background, cv::Size(m_camera.width, m_camera.height), 0, 0, cv::INTER_AREA);
    }

    void plan() {
        cv::RNG rng(m_seed * 6364136223846793005ULL + 1442695040888963407ULL);
        for (int i = 0; i < k_signs; ++i) {
            Plan p{};
            p.id = i + 1;
            // Categories in turn, as the synthetic scenes do, each with one of its real appearances.
            const auto wanted = static_cast<Category>((i + static_cast<int>(m_seed % 5)) % k_category_count);
            std::vector<std::size_t> of_category;
            for (std::size_t a = 0; a < m_appearances.size(); ++a) {
                if (m_appearances[a].category == wanted) {
                    of_category.push_back(a);
                }
            }
            const int pick = rng.uniform(0, static_cast<int>(std::max<std::size_t>(of_category.size(), 1)));
            p.appearance = of_category.empty() ? static_cast<std::size_t>(rng.uniform(0, static_cast<int>(m_appearances.size())))
                                               : of_category[static_cast<std::size_t>(pick)];
            p.spawn = static_cast<long long>(i) * k_spawn_every;
            const double side = rng.uniform(0.0, 1.0) < 0.2 ? -1.0 : 1.0;
            p.start = render::roadside_sign_pose(rng, side);
            m_plans.push_back(p);
        }
    }

    const SignModel& model(Category c) const {
        if (const SignModel* m = base_model(m_models, c)) {
            return *m;
        }
        throw std::logic_error("real scene: no model for a category");
    }

    // The appearance is mapped onto the model's bounding rectangle in the sign's plane and cut to its outline: the
    // labelled box spans the sign border to border, as the outline does.
    void draw(cv::Mat& bgr, const Appearance& a, const SignModel& m, const Pose& pose) const {
        float x0 = 1e9f, x1 = -1e9f, y0 = 1e9f, y1 = -1e9f;
        for (const auto& p : m.outline) {
            x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
        }
        // Which model corner lands top-left in the image, read from the sign seen head-on.
        const std::vector<cv::Point3f> corners = {{x0, y0, 0.f}, {x1, y0, 0.f}, {x1, y1, 0.f}, {x0, y1, 0.f}};
        const Pose head_on{0.0, 0.0, 10.0, 0.0, 0.0, 0.0};
        const auto seen = project_points(m_camera, head_on, corners);
        const auto placed = project_points(m_camera, pose, corners);
        const float w = static_cast<float>(a.bgr.cols), h = static_cast<float>(a.bgr.rows);
        std::vector<cv::Point2f> src(4), dst(4);
        for (std::size_t k = 0; k < 4; ++k) {
            const bool right = seen[k].x > (seen[0].x + seen[1].x + seen[2].x + seen[3].x) / 4.f;
            const bool below = seen[k].y > (seen[0].y + seen[1].y + seen[2].y + seen[3].y) / 4.f;
            src[k] = {right ? w : 0.f, below ? h : 0.f};
            dst[k] = placed[k];
        }
        const cv::Rect roi = cv::boundingRect(dst) & cv::Rect(0, 0, bgr.cols, bgr.rows);
        if (roi.area() <= 0) {
            return;
        }
        for (auto& p : dst) {
            p -= cv::Point2f(static_cast<float>(roi.x), static_cast<float>(roi.y));
        }
        cv::Mat warped, alpha = cv::Mat::zeros(roi.size(), CV_8U);
        cv::warpPerspective(a.bgr, warped, cv::getPerspectiveTransform(src, dst), roi.size(), cv::INTER_LINEAR,
                            cv::BORDER_REPLICATE);
        auto outline = project_points(m_camera, pose, m.outline);
        for (auto& p : outline) {
            p -= cv::Point2f(static_cast<float>(roi.x), static_cast<float>(roi.y));
        }
        cv::fillPoly(alpha, std::vector<std::vector<cv::Point>>{render::fixed_point(outline)}, cv::Scalar(255),
                     cv::LINE_AA, render::k_shift);
        cv::Mat target = bgr(roi);
        for (int r = 0; r < roi.height; ++r) {
            for (int c = 0; c < roi.width; ++c) {
                const float k = alpha.at<std::uint8_t>(r, c) / 255.f;
                if (k > 0.f) {
                    cv::Vec3b& o = target.at<cv::Vec3b>(r, c);
                    const cv::Vec3b& s = warped.at<cv::Vec3b>(r, c);
                    for (int ch = 0; ch < 3; ++ch) {
                        o[ch] = cv::saturate_cast<std::uint8_t>(k * s[ch] + (1.f - k) * o[ch]);
                    }
                }
            }
        }
    }

    void draw_signs(SceneFrame& out, long long t) const {
        std::vector<std::pair<double, std::size_t>> order; // far signs first, so near ones cover them
        for (std::size_t i = 0; i < m_plans.size(); ++i) {
            const double z = m_plans[i].start.z - k_speed * static_cast<double>(t - m_plans[i].spawn);
            if (t >= m_plans[i].spawn && z >= k_exit_depth) {
                order.emplace_back(z, i);
            }
        }
        std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        std::vector<std::vector<cv::Point2f>> shapes;
        std::vector<GroundTruth> truth;
        for (const auto& [z, i] : order) {
            const Plan& p = m_plans[i];
            const Appearance& a = m_appearances[p.appearance];
            const SignModel& m = model(a.category);
            Pose pose = p.start;
            pose.z = z;
            draw(out.bgr, a, m, pose);
            GroundTruth g;
            g.frame = t;
            g.id = p.id;
            g.category = a.category;
            g.pose = pose;
            shapes.push_back(project_points(m_camera, pose, m.outline));
            g.box = bounding_box(shapes.back()) &
                    cv::Rect2f(0.f, 0.f, static_cast<float>(m_camera.width), static_cast<float>(m_camera.height));
            truth.push_back(g);
        }
        // What nearer signs and the image border leave visible of each, as in the synthetic scenes.
        cv::Mat nearer = cv::Mat::zeros(m_camera.height, m_camera.width, CV_8U);
        for (std::size_t k = truth.size(); k-- > 0;) {
            truth[k].visible = 1.0 - render::hidden_fraction(shapes[k], nearer);
            if (truth[k].visible > 0.0 && truth[k].box.area() > 0.f) {
                out.truth.push_back(truth[k]);
            }
            cv::fillPoly(nearer, std::vector<std::vector<cv::Point>>{render::fixed_point(shapes[k])}, cv::Scalar(255),
                         cv::LINE_8, render::k_shift);
        }
        std::sort(out.truth.begin(), out.truth.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    }

    Camera m_camera;
    unsigned long long m_seed;
    std::vector<SignModel> m_models;
    cv::RNG m_rng;
    std::vector<Appearance> m_appearances;
    std::vector<std::string> m_backgrounds;
    cv::Mat m_background;
    std::vector<Plan> m_plans;
    long long m_frame = 0;
};

} // namespace

std::unique_ptr<SceneGenerator> create_real_scene(const std::string& data_dir, int width, int height,
                                                  unsigned long long seed, const ImageReader& read) {
    if (width < 64 || height < 48) {
        throw std::invalid_argument("scene size " + std::to_string(width) + "x" + std::to_string(height) +
                                    " is too small; use at least 64x48");
    }
    return std::make_unique<RealScene>(data_dir, width, height, seed, read);
}

} // namespace tracker
