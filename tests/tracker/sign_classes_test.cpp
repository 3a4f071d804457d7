// Sign classes (tracker/sign_classes.h): rectification of a rendered sign recovers its face; a machine trained on
// faces recognises new faces of its classes and survives saving; the shipped classifier names labelled real signs
// and the tracker's own detections of them (when ../shared/data is there); track voting; bad class files are one
// clear error each.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "face_maps.h"
#include "long_runs.h"
#include "scenes/synthetic.h"
#include "tracker/eval.h"
#include "tracker/labels.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/sign_classes.h"
#include "tracker/tracker.h"

namespace tracker {
namespace {

namespace fs = std::filesystem;

cv::Mat backdrop(unsigned seed = 1) {
    cv::Mat f(360, 640, CV_8UC3);
    cv::theRNG().state = seed;
    cv::randn(f, cv::Scalar(90, 110, 100), cv::Scalar(20, 20, 20));
    cv::GaussianBlur(f, f, cv::Size(5, 5), 0);
    return f;
}

// Normalised cross-correlation of two whole faces (the classifier's vector is the inner disc only, which a plain
// rendered prohibitory sign leaves white).
double ncc(const cv::Mat& a, const cv::Mat& b) {
    cv::Mat r;
    cv::matchTemplate(a, b, r, cv::TM_CCOEFF_NORMED);
    return r.at<float>(0, 0);
}

double mean_abs_diff(const cv::Mat& a, const cv::Mat& b) {
    cv::Mat d;
    cv::absdiff(a, b, d);
    return cv::mean(d)[0];
}

fs::path dev_set() { return fs::path(SWARMTRACK_SOURCE_DIR) / ".." / "shared" / "data" / "gtsdb-dev"; }

TEST(SignClasses, RectifyingARenderedTiltedSignRecoversItsFace) {
    const auto models = load_sign_models("", {Category::Prohibitory, Category::Danger, Category::Mandatory});
    const Camera cam = Camera::from_fov(640, 360, 60);
    for (const auto& m : models) {
        // The face seen straight on, near: the reference.
        cv::Mat front = backdrop(2);
        Pose p0;
        p0.z = 6;
        render_sign(front, cam, m, p0);
        const cv::Mat reference = rectify_face(front, cam, m, p0);
        // The same sign turned, rolled, off-centre and farther away.
        cv::Mat tilted = backdrop(3);
        Pose p;
        p.x = 1.5;
        p.y = -0.6;
        p.z = 9;
        p.yaw = 28;
        p.pitch = -9;
        p.roll = 8;
        render_sign(tilted, cam, m, p);
        const cv::Mat face = rectify_face(tilted, cam, m, p);
        EXPECT_GT(ncc(face, reference), 0.9) << to_string(m.category);
        EXPECT_LT(mean_abs_diff(face, reference), 20.0) << to_string(m.category);
        // Undoing the wrong pose (no rotation; a third of the sign off) does not recover it.
        Pose wrong = p;
        wrong.yaw = wrong.pitch = wrong.roll = 0;
        wrong.x += 0.25;
        EXPECT_LT(ncc(rectify_face(tilted, cam, m, wrong), reference), ncc(face, reference) - 0.2) << to_string(m.category);
    }
}

TEST(SignClasses, AFaceOnBoxAndItsPoseGiveTheSameFace) {
    const auto models = load_sign_models("", {Category::Prohibitory});
    const Camera cam = Camera::from_fov(640, 360, 60);
    cv::Mat f = backdrop(4);
    Pose p;
    p.x = -1;
    p.z = 8;
    render_sign(f, cam, models[0], p);
    // bounding_box is in pixel-centre coordinates; a label box's x is its first pixel, half a pixel further.
    const cv::Rect2f box = bounding_box(project_points(cam, p, models[0].outline)) + cv::Point2f(0.5f, 0.5f);
    const cv::Mat by_pose = rectify_face(f, cam, models[0], p), by_box = rectify_box(f, box);
    EXPECT_LT(mean_abs_diff(by_pose, by_box), 3.0);
}

TEST(SignClasses, LargeSignsAreAveragedNotAliased) {
    EXPECT_EQ(math::face_samples(12.f, k_face_side), 1);
    EXPECT_EQ(math::face_samples(48.f, k_face_side), 2);
    EXPECT_EQ(math::face_samples(500.f, k_face_side), 4);
    // A fine checkerboard (1-px squares) 96 px across shrinks to a flat grey, not a pattern.
    cv::Mat board(200, 200, CV_8UC3);
    for (int y = 0; y < board.rows; ++y) {
        for (int x = 0; x < board.cols; ++x) board.at<cv::Vec3b>(y, x) = (x + y) % 2 ? cv::Vec3b(255, 255, 255) : cv::Vec3b(0, 0, 0);
    }
    cv::Mat face = rectify_box(board, cv::Rect2f(52, 52, 96, 96));
    cv::Scalar mean, dev;
    cv::meanStdDev(face, mean, dev);
    EXPECT_NEAR(mean[0], 127.5, 6.0);
    EXPECT_LT(dev[0], 8.0);
}

// Three made-up classes of one category: a red ring around "30", "50" and "80".
cv::Mat speed_sign(const std::string& text, std::mt19937& rng, cv::Rect2f& box) {
    std::uniform_real_distribution<float> jitter(-1.5f, 1.5f), size(26.f, 34.f);
    cv::Mat f(64, 64, CV_8UC3, cv::Scalar(90, 110, 100));
    const float r = 0.5f * size(rng);
    const float cx = 32.f + jitter(rng); // one draw per statement: argument order is the compiler's
    const float cy = 32.f + jitter(rng);
    const cv::Point2f c(cx, cy);
    cv::circle(f, c, cvRound(r), cv::Scalar(40, 40, 200), cv::FILLED, cv::LINE_AA);
    cv::circle(f, c, cvRound(0.78f * r), cv::Scalar(235, 235, 235), cv::FILLED, cv::LINE_AA);
    const double scale = r / 26.0;
    int base = 0;
    const cv::Size t = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, scale, 2, &base);
    cv::putText(f, text, cv::Point(cvRound(c.x - t.width / 2.0), cvRound(c.y + t.height / 2.0)), cv::FONT_HERSHEY_SIMPLEX,
                scale, cv::Scalar(20, 20, 20), 2, cv::LINE_AA);
    cv::Mat noise(f.size(), CV_8UC3);
    cv::randn(noise, cv::Scalar::all(0), cv::Scalar::all(6));
    f += noise;
    box = cv::Rect2f(c.x - r, c.y - r, 2 * r, 2 * r);
    return f;
}

std::map<Category, CategoryMachine> train_three(std::mt19937& rng) {
    std::vector<cv::Mat> faces;
    std::vector<int> ids;
    const std::pair<int, const char*> kinds[] = {{1, "30"}, {2, "50"}, {5, "80"}};
    for (int n = 0; n < 15; ++n) {
        for (const auto& [id, text] : kinds) {
            cv::Rect2f box;
            const cv::Mat f = speed_sign(text, rng, box);
            faces.push_back(rectify_box(f, box));
            ids.push_back(id);
        }
    }
    std::map<Category, CategoryMachine> m;
    m.emplace(Category::Prohibitory, train_category_machine(faces, ids, FaceMask{}, 0.5, 10));
    return m;
}

std::vector<SignClass> shipped_list() {
    return SignClassifier::load_class_list(default_classes_dir() + "/classes.json");
}

TEST(SignClasses, AMachineRecognisesNewFacesOfItsClasses) {
    std::mt19937 rng(7);
    const SignClassifier c(shipped_list(), train_three(rng), 0.0);
    int right = 0, total = 0;
    const std::pair<int, const char*> kinds[] = {{1, "30"}, {2, "50"}, {5, "80"}};
    for (int n = 0; n < 10; ++n) {
        for (const auto& [id, text] : kinds) {
            cv::Rect2f box;
            const cv::Mat f = speed_sign(text, rng, box);
            const ClassScores s = c.classify(Category::Prohibitory, rectify_box(f, box));
            right += s.class_id == id;
            ++total;
            EXPECT_EQ(s.scores.size(), 3u);
            EXPECT_GE(s.confidence, 0.0);
            EXPECT_LE(s.confidence, 1.0);
        }
    }
    EXPECT_GE(right, total - 2) << right << " of " << total;
    EXPECT_EQ(c.name(2), "speed limit 50");
    EXPECT_EQ(c.name(-1), "unknown");
    // A category of one class is that class; one without a machine and several classes is unknown.
    const cv::Mat flat(k_face_side, k_face_side, CV_8U, cv::Scalar(128));
    EXPECT_EQ(c.classify(Category::Stop, flat).class_id, 14);
    EXPECT_EQ(c.classify(Category::Danger, flat).class_id, -1);
}

TEST(SignClasses, MachinesSurviveSavingAndLoading) {
    std::mt19937 rng(11);
    const auto machines = train_three(rng);
    const fs::path dir = fs::path(testing::TempDir()) / "classes_roundtrip";
    fs::create_directories(dir);
    fs::copy_file(default_classes_dir() + "/classes.json", dir / "classes.json", fs::copy_options::overwrite_existing);
    SignClassifier::save_machines((dir / "classifier.yml.gz").string(), machines, 0.55);
    const auto loaded = SignClassifier::load(dir.string());
    const SignClassifier direct(shipped_list(), machines, 0.55);
    EXPECT_DOUBLE_EQ(loaded->min_confidence(), 0.55);
    for (int n = 0; n < 6; ++n) {
        cv::Rect2f box;
        const cv::Mat f = speed_sign(n % 2 ? "30" : "80", rng, box);
        const cv::Mat face = rectify_box(f, box);
        const ClassScores a = loaded->classify(Category::Prohibitory, face), b = direct.classify(Category::Prohibitory, face);
        EXPECT_EQ(a.class_id, b.class_id);
        EXPECT_NEAR(a.confidence, b.confidence, 1e-5);
    }
}

TEST(SignClasses, ATrackVotesOverItsFrames) {
    ClassVotes votes;
    auto frame = [](int winner, double share) {
        ClassScores s;
        s.scores = {{1, winner == 1 ? 1.0 : 0.0, winner == 1 ? share : 1 - share},
                    {2, winner == 2 ? 1.0 : 0.0, winner == 2 ? share : 1 - share}};
        return s;
    };
    EXPECT_EQ(votes.add(7, 0, 10, frame(1, 0.9), 0.6).class_id, 1);
    EXPECT_EQ(votes.add(7, 1, 10, frame(1, 0.8), 0.6).class_id, 1);
    // A far (narrow) frame's different answer does not overturn two near ones.
    const ClassScores after = votes.add(7, 2, 4, frame(2, 0.9), 0.6);
    EXPECT_EQ(after.class_id, 1);
    EXPECT_NEAR(after.confidence, (10 * 0.9 + 10 * 0.8 + 4 * 0.1) / 24.0, 1e-9);
    // Below the confidence bar the class is unknown.
    EXPECT_EQ(votes.add(8, 2, 10, frame(2, 0.55), 0.6).class_id, -1);
    votes.forget_older_than(9, 6);
    EXPECT_EQ(votes.size(), 0u);
}

void expect_error(const std::string& dir, const std::string& names, const std::string& fix) {
    try {
        SignClassifier::load(dir);
        FAIL() << "no error for " << dir;
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(names), std::string::npos) << what;
        EXPECT_NE(what.find(fix), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

TEST(SignClasses, BadClassFilesAreOneClearErrorEach) {
    const fs::path root = fs::path(testing::TempDir()) / "classes_bad";
    fs::remove_all(root);
    expect_error((root / "missing").string(), (root / "missing").string(), "\"none\"");

    const fs::path no_list = root / "no_list";
    fs::create_directories(no_list);
    expect_error(no_list.string(), (no_list / "classes.json").string(), "\"none\"");

    const fs::path bad_json = root / "bad_json";
    fs::create_directories(bad_json);
    std::ofstream(bad_json / "classes.json") << "{\"classes\": [{\"id\": 1, \"name\": \"x\"";
    expect_error(bad_json.string(), (bad_json / "classes.json").string(), "not valid JSON");

    const fs::path no_category = root / "no_category";
    fs::create_directories(no_category);
    std::ofstream(no_category / "classes.json") << "{\"classes\": [{\"id\": 1, \"name\": \"x\"}]}";
    expect_error(no_category.string(), "classes[0]", "\"category\"");

    const fs::path no_machine = root / "no_machine";
    fs::create_directories(no_machine);
    fs::copy_file(default_classes_dir() + "/classes.json", no_machine / "classes.json");
    expect_error(no_machine.string(), (no_machine / "classifier.yml.gz").string(), "train_classes");

    const fs::path wrong = root / "wrong";
    fs::create_directories(wrong);
    fs::copy_file(default_classes_dir() + "/classes.json", wrong / "classes.json");
    std::ofstream(wrong / "classifier.yml.gz") << "not a gzip file";
    expect_error(wrong.string(), (wrong / "classifier.yml.gz").string(), "train_classes");

    const fs::path old = root / "old";
    fs::create_directories(old);
    fs::copy_file(default_classes_dir() + "/classes.json", old / "classes.json");
    {
        cv::FileStorage f((old / "classifier.yml.gz").string(), cv::FileStorage::WRITE);
        f << "face_side" << 32 << "mask_pixels" << 100;
    }
    expect_error(old.string(), "not a sign classifier of this version", "train_classes");

    // Through the tracker's settings: the classes setting names the folder.
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    s.signs.classes = (root / "missing").string();
    try {
        create_tracker(s, Camera::from_fov(640, 360, 60));
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find((root / "missing").string()), std::string::npos) << e.what();
    }
    s.signs.classes = "none";
    EXPECT_NO_THROW(create_tracker(s, Camera::from_fov(640, 360, 60)));
}

TEST(SignClasses, ShippedClassifierLoadsWithTheClassList) {
    const auto c = SignClassifier::load("");
    EXPECT_EQ(c->classes().size(), 43u);
    EXPECT_EQ(c->name(3), "speed limit 60");
    EXPECT_EQ(c->name(9), "no overtaking");
    for (const Category cat : {Category::Prohibitory, Category::Danger, Category::Mandatory}) {
        ASSERT_TRUE(c->machines().count(cat)) << to_string(cat);
        for (int id : c->machines().at(cat).classes) {
            bool found = false;
            for (const auto& k : c->classes()) found = found || (k.id == id && k.category == cat);
            EXPECT_TRUE(found) << "class " << id << " of " << to_string(cat);
        }
    }
}

// Every shipped template, a labelled face the machine kept, is named as its own class. A template's class: in a
// decision function of classes (i, j) a positive coefficient belongs to a face of class i, a negative one to j.
TEST(SignClasses, ShippedTemplatesMatchTheirOwnClass) {
    const auto c = SignClassifier::load("");
    for (const auto& [cat, m] : c->machines()) {
        std::vector<int> cls(static_cast<std::size_t>(m.faces.rows), -1);
        const int k = static_cast<int>(m.classes.size());
        int d = 0;
        for (int i = 0; i < k; ++i) {
            for (int j = i + 1; j < k; ++j, ++d) {
                for (int t = m.offsets[static_cast<std::size_t>(d)]; t < m.offsets[static_cast<std::size_t>(d) + 1]; ++t) {
                    const float a = m.alpha[static_cast<std::size_t>(t)];
                    if (a != 0.f) cls[static_cast<std::size_t>(m.index[static_cast<std::size_t>(t)])] = m.classes[static_cast<std::size_t>(a > 0 ? i : j)];
                }
            }
        }
        const std::vector<int> where = mask_indices(m.mask);
        int right = 0, known = 0;
        for (int r = 0; r < m.faces.rows; ++r) {
            if (cls[static_cast<std::size_t>(r)] < 0) continue;
            cv::Mat face(k_face_side, k_face_side, CV_8U, cv::Scalar(0));
            for (std::size_t p = 0; p < where.size(); ++p) face.data[where[p]] = m.faces.at<std::uint8_t>(r, static_cast<int>(p));
            ++known;
            right += c->classify(cat, face).class_id == cls[static_cast<std::size_t>(r)];
        }
        EXPECT_GT(known, 0) << to_string(cat);
        // Templates on the margin's wrong side (the soft margin's bounded ones) may go to a neighbour class.
        EXPECT_GE(right, static_cast<int>(0.95 * known)) << to_string(cat) << ": " << right << " of " << known;
    }
}

// The shipped file on the dev set's labelled boxes, which it was built from: its templates must name their own
// classes (the held-out figures are tools/train_classes --folds').
TEST(SignClasses, ShippedTemplatesNameTheLabelledRealSigns) {
    const fs::path data = dev_set();
    if (!fs::exists(data / "labels.csv")) {
        GTEST_SKIP() << "no " << data.string() << " (the real dev set sits beside the checkout in ../shared/data)";
    }
    const auto c = SignClassifier::load("");
    const LabelSet set = read_labels_csv((data / "labels.csv").string());
    int signs = 0, right = 0;
    std::string image;
    cv::Mat bgr;
    for (const auto& l : set.labels) {
        if (!l.category || l.class_id < 0 || signs >= 150) continue;
        if (l.image != image) {
            bgr = cv::imread((data / "images" / (l.image + ".jpg")).string());
            image = l.image;
        }
        ASSERT_FALSE(bgr.empty()) << l.image;
        ++signs;
        right += c->classify(*l.category, rectify_box(bgr, l.box)).class_id == l.class_id;
    }
    EXPECT_GE(right, static_cast<int>(0.95 * signs)) << right << " of " << signs;
}

// The tracker on a few dev frames: its detections that match a labelled sign carry that sign's class.
TEST(SignClasses, TrackerNamesTheClassesOfRealSigns) {
    SKIP_WHERE_LONG_RUNS_ARE_OFF();
    const fs::path data = dev_set();
    if (!fs::exists(data / "labels.csv")) {
        GTEST_SKIP() << "no " << data.string() << " (the real dev set sits beside the checkout in ../shared/data)";
    }
    const LabelSet set = read_labels_csv((data / "labels.csv").string());
    TrackerSettings s;
    s.engine.backend = swarm::Backend::Cpu;
    int matched = 0, right = 0, images = 0;
    std::unique_ptr<Tracker> tracker;
    for (const std::string& key : set.images) {
        if (images >= 8) break;
        const cv::Mat bgr = cv::imread((data / "images" / (key + ".jpg")).string());
        ASSERT_FALSE(bgr.empty()) << key;
        if (!tracker) tracker = create_tracker(s, Camera::from_fov(bgr.cols, bgr.rows, s.camera.horizontal_fov_deg));
        tracker->reset();
        ++images;
        const FrameResult r = tracker->process(bgr);
        for (const auto& d : r.detections) {
            for (const auto& l : set.labels) {
                if (l.image == key && l.category == d.category && l.class_id >= 0 && box_iou(l.box, d.box) >= 0.5) {
                    ++matched;
                    right += d.class_id == l.class_id;
                    EXPECT_EQ(d.class_name, d.class_id >= 0 ? SignClassifier::load("")->name(d.class_id) : "unknown");
                    break;
                }
            }
        }
    }
    std::printf("%d of %d matched detections carry their label's class (%d frames)\n", right, matched, images);
    EXPECT_GE(matched, 4) << "too few detections matched a labelled sign to judge";
    EXPECT_GE(right, static_cast<int>(0.8 * matched)) << right << " of " << matched;
}

} // namespace
} // namespace tracker
