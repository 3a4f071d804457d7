// Projection against cv::projectPoints; colour classes on known pixels; bad model/camera/config files.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <opencv2/calib3d.hpp>

#include "common/colour_math.h"
#include "tracker/assets.h"
#include "tracker/io.h"
#include "tracker/model.h"
#include "tracker/pose.h"
#include "tracker/tracker.h"
#include "test_files.h"

namespace tracker {
namespace {

using test::error_of;
using test::write_temp;

TEST(Projection, MatchesOpenCvProjectPoints) {
    const Camera cam = Camera::from_fov(1280, 720, 60);
    const auto model = load_sign_model(default_models_dir() + "/stop.json");
    for (const Pose p : {Pose{1.5, -1.2, 12, 10, -5, 3}, Pose{-4, 0.5, 35, -25, 8, -9}, Pose{0, 0, 6, 0, 0, 0}}) {
        std::vector<cv::Point3f> pts;
        for (const auto& m : model.points) {
            pts.push_back(m.position);
        }
        cv::Vec3d rvec;
        cv::Rodrigues(cv::Mat(rotation_matrix(p)), rvec);
        std::vector<cv::Point2f> expected;
        cv::projectPoints(pts, rvec, cv::Vec3d(p.x, p.y, p.z), cv::Mat(cam.matrix()), cv::noArray(), expected);
        const auto got = project_points(cam, p, pts);
        for (std::size_t i = 0; i < pts.size(); ++i) {
            EXPECT_NEAR(got[i].x, expected[i].x, 0.02);
            EXPECT_NEAR(got[i].y, expected[i].y, 0.02);
        }
    }
}

TEST(Projection, ParticleVectorRoundTrips) {
    PoseSpace space;
    space.active = {true, true, true, true, false, true};
    space.fixed.pitch = 4;
    const Pose p{2, -1, 20, 7, 4, -3};
    const auto v = space.to_vector(p);
    ASSERT_EQ(v.size(), 5u);
    const Pose q = space.from_vector(v.data());
    EXPECT_NEAR(q.x, p.x, 1e-9);
    EXPECT_NEAR(q.y, p.y, 1e-9);
    EXPECT_NEAR(q.pitch, 4, 1e-9);
    EXPECT_NEAR(q.roll, -3, 1e-9);
}

TEST(ColourClasses, KnownPixels) {
    const float mean = 110;
    auto c = math::classify(40, 35, 200, mean); // sign red (BGR)
    EXPECT_GT(c.red, 0.9f);
    EXPECT_LT(c.blue + c.white + c.yellow, 0.05f);
    c = math::classify(165, 85, 20, mean); // sign blue
    EXPECT_GT(c.blue, 0.9f);
    c = math::classify(238, 238, 236, mean); // white
    EXPECT_GT(c.white, 0.9f);
    c = math::classify(25, 200, 235, mean); // yellow
    EXPECT_GT(c.yellow, 0.9f);
    c = math::classify(100, 100, 100, mean); // road grey: other
    EXPECT_LT(c.red + c.blue + c.white + c.yellow, 0.05f);
    // Night: everything 3x darker, classes unchanged.
    c = math::classify(13, 12, 67, mean / 3);
    EXPECT_GT(c.red, 0.9f);
    c = math::classify(79, 79, 79, mean / 3);
    EXPECT_GT(c.white, 0.9f);
}

TEST(BadInput, MalformedModelNamesFileFieldAndReason) {
    const auto bad_category = write_temp("m1.json", R"({"format":"swarmtrack-sign/1","category":"speed","outline":[]})");
    EXPECT_NE(error_of([&] { load_sign_model(bad_category); }).find("field 'category'"), std::string::npos);
    const auto bad_point = write_temp("m2.json", R"({"format":"swarmtrack-sign/1","category":"stop",
        "outline":[[0,0,0],[1,0,0],[0,"x",0]]})");
    const std::string e = error_of([&] { load_sign_model(bad_point); });
    EXPECT_NE(e.find("m2.json"), std::string::npos);
    EXPECT_NE(e.find("outline[2]"), std::string::npos);
    const auto no_rim = write_temp("m3.json", R"({"format":"swarmtrack-sign/1","category":"stop",
        "outline":[[0,0,0],[0.5,0,0],[0,0.5,0]],"layers":[{"colour":"red","polygon":[[0,0,0],[0.5,0,0],[0,0.5,0]]}],
        "regions":[{"role":"interior","colour":"red","points":[[0.1,0.1,0]]}]})");
    EXPECT_NE(error_of([&] { load_sign_model(no_rim); }).find("rim"), std::string::npos);
    EXPECT_NE(error_of([&] { load_sign_model(write_temp("m4.json", "{not json")); }).find("not valid JSON"),
              std::string::npos);
    const auto bad_optional = write_temp("m5.json", R"({"format":"swarmtrack-sign/1","category":"stop",
        "outline":[[0,0,0],[0.5,0,0],[0,0.5,0]],"layers":[{"colour":"red","polygon":[[0,0,0],[0.5,0,0],[0,0.5,0]]}],
        "regions":[{"role":"rim","colour":"red","optional":"yes","points":[[0.1,0.1,0]]}]})");
    EXPECT_NE(error_of([&] { load_sign_model(bad_optional); }).find("regions[0].optional"), std::string::npos)
        << error_of([&] { load_sign_model(bad_optional); });
    const auto bad_part = write_temp("m6.json", R"({"format":"swarmtrack-sign/1","category":"stop",
        "outline":[[0,0,0],[0.5,0,0],[0,0.5,0]],"layers":[{"colour":"red","polygon":[[0,0,0],[0.5,0,0],[0,0.5,0]]}],
        "regions":[{"role":"rim","colour":"red","part":9,"points":[[0.1,0.1,0]]}]})");
    EXPECT_NE(error_of([&] { load_sign_model(bad_part); }).find("regions[0].part"), std::string::npos)
        << error_of([&] { load_sign_model(bad_part); });
    const auto bad_scale = write_temp("m7.json", R"({"format":"swarmtrack-sign/1","category":"stop",
        "rim_floor_scale":1.5,"outline":[[0,0,0],[0.5,0,0],[0,0.5,0]]})");
    EXPECT_NE(error_of([&] { load_sign_model(bad_scale); }).find("field 'rim_floor_scale': must be a number from 0 to 1"),
              std::string::npos)
        << error_of([&] { load_sign_model(bad_scale); });
    const auto bad_verified = write_temp("m8.json", R"({"format":"swarmtrack-sign/1","category":"danger",
        "verified_threshold_scale":"low","outline":[[0,0,0],[0.5,0,0],[0,0.5,0]]})");
    EXPECT_NE(error_of([&] { load_sign_model(bad_verified); })
                  .find("field 'verified_threshold_scale': must be a number from 0 to 1"),
              std::string::npos)
        << error_of([&] { load_sign_model(bad_verified); });
}

const std::vector<Category> k_every_category = {Category::Prohibitory, Category::Danger, Category::Mandatory,
                                                Category::GiveWay, Category::Stop};

// The shipped triangles' finds count from a lower verified threshold than the discs' (SignModel::
// verified_threshold_scale): the verifier tells a faded triangle from clutter more surely than a faded disc.
TEST(SignModels, TrianglesTakeALowerVerifiedThresholdThanDiscs) {
    const auto models = load_sign_models("", k_every_category);
    ASSERT_GE(models.size(), k_every_category.size());
    for (const SignModel& m : models) {
        const bool triangle = m.category == Category::Danger || m.category == Category::GiveWay;
        if (triangle) {
            EXPECT_LT(m.verified_threshold_scale, 1.f) << m.source;
            EXPECT_GT(m.verified_threshold_scale, 0.f) << m.source;
        } else {
            EXPECT_EQ(m.verified_threshold_scale, 1.f) << m.source;
        }
    }
}

// A category's base model comes first, then its variants (the mandatory roundabout); the base is what the renderer
// draws and the detection tiles search.
TEST(SignModels, VariantsFollowTheirBaseModel) {
    const auto models = load_sign_models("", k_every_category);
    std::size_t next = 0;
    for (Category c : k_every_category) {
        ASSERT_LT(next, models.size());
        EXPECT_EQ(models[next].category, c);
        EXPECT_TRUE(models[next].variant.empty()) << models[next].source;
        for (++next; next < models.size() && models[next].category == c; ++next) {
            EXPECT_FALSE(models[next].variant.empty()) << models[next].source;
        }
    }
    EXPECT_EQ(next, models.size());
    const auto roundabout =
        std::find_if(models.begin(), models.end(), [](const SignModel& m) { return m.variant == "roundabout"; });
    ASSERT_NE(roundabout, models.end());
    EXPECT_EQ(roundabout->category, Category::Mandatory);
    // Asking for one category gives its variants too, and no other category.
    const auto mandatory = load_sign_models("", {Category::Mandatory});
    ASSERT_EQ(mandatory.size(), 2u);
    EXPECT_TRUE(mandatory[0].variant.empty());
    EXPECT_EQ(mandatory[1].variant, "roundabout");
}

TEST(BadInput, SignModelVariants) {
    namespace fs = std::filesystem;
    const std::string body = R"("format":"swarmtrack-sign/1","category":"stop",
        "outline":[[0,0,0],[0.5,0,0],[0,0.5,0]],"layers":[{"colour":"red","polygon":[[0,0,0],[0.5,0,0],[0,0.5,0]]}],
        "regions":[{"role":"rim","colour":"red","points":[[0.1,0.1,0]]},
                   {"role":"interior","colour":"white","points":[[0.1,0.1,0]]},
                   {"role":"outside","colour":"red","points":[[0.6,0.6,0]]}])";
    const auto bad_variant = write_temp("v0.json", "{" + body + R"(,"variant":""})");
    EXPECT_NE(error_of([&] { load_sign_model(bad_variant); }).find("field 'variant': must be a non-empty name"),
              std::string::npos)
        << error_of([&] { load_sign_model(bad_variant); });
    const auto bad_floor = write_temp("v1.json", "{" + body + R"(,"find_floor":2})");
    EXPECT_NE(error_of([&] { load_sign_model(bad_floor); }).find("field 'find_floor': must be a number from 0 to 1"),
              std::string::npos)
        << error_of([&] { load_sign_model(bad_floor); });
    const fs::path dir = fs::path(::testing::TempDir()) / "variant_models";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto put = [&](const std::string& name, const std::string& text) { std::ofstream(dir / name) << text; };
    put("b.json", "{" + body + R"(,"variant":"night"})");
    // A variant alone is no model for its category.
    EXPECT_NE(
        error_of([&] { load_sign_models(dir.string(), {Category::Stop}); }).find("no sign model for category stop"),
        std::string::npos);
    put("a.json", "{" + body + "}");
    const auto both = load_sign_models(dir.string(), {Category::Stop});
    ASSERT_EQ(both.size(), 2u);
    EXPECT_EQ(both[0].source, (dir / "a.json").string());
    EXPECT_EQ(both[1].variant, "night");
    // Two base models of a category, or two variants of one name, are one model too many.
    put("c.json", "{" + body + "}");
    const std::string two_bases = error_of([&] { load_sign_models(dir.string(), {Category::Stop}); });
    EXPECT_NE(two_bases.find("c.json: field 'category': stop is already defined by"), std::string::npos) << two_bases;
    EXPECT_NE(two_bases.find("variant"), std::string::npos) << two_bases;
    fs::remove(dir / "c.json");
    put("d.json", "{" + body + R"(,"variant":"night"})");
    const std::string two_variants = error_of([&] { load_sign_models(dir.string(), {Category::Stop}); });
    EXPECT_NE(two_variants.find("d.json: field 'category': stop variant night is already defined by"),
              std::string::npos)
        << two_variants;
    fs::remove_all(dir);
}

TEST(BadInput, CameraFile) {
    const auto good = write_temp("cam.yaml", "%YAML:1.0\n---\nimage_width: 640\nimage_height: 360\ncamera_matrix: "
                                             "!!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n   data: [ 500., 0., "
                                             "320., 0., 500., 180., 0., 0., 1. ]\n");
    const Camera c = Camera::load(good);
    EXPECT_EQ(c.fx, 500);
    EXPECT_EQ(c.width, 640);
    EXPECT_EQ(c.scaled_to(1280, 720).fx, 1000);
    const auto no_width = write_temp("cam2.yaml", "%YAML:1.0\n---\nimage_height: 360\ncamera_matrix: !!opencv-matrix\n"
                                                  "   rows: 3\n   cols: 3\n   dt: d\n   data: [ 500., 0., 320., 0., "
                                                  "500., 180., 0., 0., 1. ]\n");
    EXPECT_NE(error_of([&] { Camera::load(no_width); }).find("image_width"), std::string::npos);
    EXPECT_NE(error_of([&] { Camera::load(write_temp("cam3.yaml", "%YAML:1.0\n---\nimage_width: 640\n")); })
                  .find("camera_matrix"),
              std::string::npos);
    EXPECT_FALSE(error_of([&] { Camera::load(::testing::TempDir() + "missing.yaml"); }).empty());
    const auto huge = write_temp("cam6.yaml", "%YAML:1.0\n---\nimage_width: 70000\nimage_height: 360\ncamera_matrix: "
                                              "!!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n   data: [ 500., 0., "
                                              "320., 0., 500., 180., 0., 0., 1. ]\n");
    EXPECT_NE(
        error_of([&] { Camera::load(huge); }).find("field 'image_width': missing or not an integer from 1 to 65536"),
        std::string::npos);
}

// OpenCV 4.6's YAML reader never returns on some of these documents and its XML reader crashes on some; the screens
// refuse them first, naming the line.
TEST(BadInput, CameraFilesOpenCvCannotReadAreRefusedBeforeItReadsThem) {
    const std::pair<const char*, int> hangs[] = {
        {"%YAML:1.0\n---t:0\n--e-\n", 2},
        {"%YAML:1.0\n   dt: d\n%Y\n- -", 2},
        {"%YAML:1.0\nc-: 1\n  d: 2\nJ\n", 3},
        {"%YAML:1.0\n---\nroww: %YAMLM\n- /\n", 3},
        {"%YAML:1.0\ncamera_matrix: !!opencv-matrix\n   data: [ 1., 2.,\n3. ]\n", 4},
        {"<?xml n=\"1.0\"?>\n<opencv_storage>\n<image_width>640</image_width>\n<camera_matrix type_i", 4},
        {"<?xml version=\"1.0\"?>\n<opencv_storage>\n<rows>3</cols>\n</opencv_storage>\n", 3},
        {"<?xml version=\"1.0\"?>\n<opencv_storage>\n<rows>3</rows>\n", 4},
        {"<?xml?><x i=\r\n\r\n\"\"/>", 1},
        {"%YAML:1.0\n- a\n...\n- L#", 4},
        {"%YAML:1.0\na: 1\n---\nb: 2\n", 3}};
    for (const auto& [text, line] : hangs) {
        const auto path = write_temp("cam4.yaml", text);
        EXPECT_NE(error_of([&] { Camera::load(path); }).find("cam4.yaml:" + std::to_string(line) + ": malformed "),
                  std::string::npos)
            << text << " -> " << error_of([&] { Camera::load(path); });
    }
    const auto calibrated = write_temp(
        "cam5.yml", "%YAML:1.0\n---\ncalibration_time: \"Thu 03 Dec 2026\"\nnr_of_frames: 12\nimage_width: 640\n"
                    "image_height: 360\nflags: 0\ncamera_matrix: !!opencv-matrix\n   rows: 3\n   cols: 3\n   dt: d\n"
                    "   data: [ 5.0000000000000000e+02, 0., 3.2000000000000000e+02, 0.,\n"
                    "       5.0000000000000000e+02, 1.8000000000000000e+02, 0., 0., 1. ]\n"
                    "distortion_coefficients: !!opencv-matrix\n   rows: 5\n   cols: 1\n   dt: d\n"
                    "   data: [ -2.1e-01, 1.0e-01, 0., 0.,\n       -3.0e-02 ]\n"
                    "avg_reprojection_error: 0.31\n# done\n...\n");
    EXPECT_EQ(Camera::load(calibrated).fx, 500);
}

// The screen admits what FileStorage itself writes: matrices over several lines, nested mappings, lists of
// scalars and of mappings, quoted text.
TEST(BadInput, CameraFilesFileStorageWritesPassTheScreen) {
    for (const char* format : {".yaml", ".xml"}) {
        const std::string path = ::testing::TempDir() + "written_by_opencv" + format;
        {
            cv::FileStorage fs(path, cv::FileStorage::WRITE);
            fs << "calibration_time"
               << "Thu Dec  3 21:30:00 2026";
            fs << "image_width" << 640 << "image_height" << 360;
            fs << "camera_matrix" << (cv::Mat_<double>(3, 3) << 500.25, 0, 320, 0, 500.25, 180, 0, 0, 1);
            fs << "distortion_coefficients"
               << (cv::Mat_<double>(1, 14) << -0.21, 0.1, 0, 0, -0.03, 0, 0, 0, 0, 0, 0, 0, 0, 0);
            fs << "rig"
               << "{"
               << "name"
               << "front-left"
               << "offset"
               << "{"
               << "x" << 0.5 << "y" << -0.25 << "}"
               << "}";
            fs << "sizes"
               << "[" << 1 << 2 << 3 << "]";
            fs << "views"
               << "["
               << "{"
               << "frame" << 1 << "error" << 0.3 << "}"
               << "{"
               << "frame" << 2 << "error" << 0.4 << "}"
               << "]";
            fs << "extrinsics" << cv::Mat(cv::Mat::ones(6, 4, CV_64F) * 1.0e-3);
        }
        const Camera c = Camera::load(path);
        EXPECT_DOUBLE_EQ(c.fx, 500.25) << format;
        EXPECT_EQ(c.height, 360) << format;
    }
}

TEST(BadInput, TrackerConfig) {
    TrackerSettings s;
    s.search.particles = 48;
    s.signs.categories = {Category::Stop, Category::Danger};
    const std::string path = ::testing::TempDir() + "settings.json";
    s.save(path);
    const TrackerSettings back = TrackerSettings::load(path);
    EXPECT_EQ(back.search.particles, 48);
    EXPECT_EQ(back.signs.categories, s.signs.categories);
    EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c1.json", R"({"particels": 10})")); }).find("particels"),
              std::string::npos);
    EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c2.json", R"({"w": "fast"})")); }).find("'w'"),
              std::string::npos);
    EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c3.json", R"({"topology": "star"})")); })
                  .find("topology"),
              std::string::npos);
    EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c4.json", R"({"z_min": 50, "z_max": 10})")); })
                  .find("z_max"),
              std::string::npos);
    EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c5.json", R"({"detection_rows": -1})")); })
                  .find("detection_rows"),
              std::string::npos);
    EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c6.json", R"({"depth_filter_gain": 0})")); })
                  .find("depth_filter_gain"),
              std::string::npos);
    for (const char* team : {R"({"gpu_team_warps": 3})", R"({"gpu_team_warps": -1})"}) {
        EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c8.json", team)); }).find("gpu_team_warps"),
                  std::string::npos)
            << team;
    }
    // A key or value with a control character in it is named escaped, on the error's one line.
    for (const char* odd : {R"({"back\nd": "cpu"})", R"({"strategy": "au\nto"})"}) {
        const std::string e = error_of([&] { TrackerSettings::load(write_temp("c11.json", odd)); });
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
        EXPECT_NE(e.find("\\n"), std::string::npos) << e;
    }
    EXPECT_EQ(TrackerSettings{}.engine.gpu_team_warps, 0); // auto
    // (a plain pair, not a structured binding: clang 14 cannot capture bindings in the lambda)
    for (const auto& bad :
         {std::pair{R"({"track_focus_share": 1.5})", "track_focus_share"},
          std::pair{R"({"track_focus_scale": 0})", "track_focus_scale"},
          std::pair{R"({"occluder_credit": -0.1})", "occluder_credit"},
          std::pair{R"({"yellow_interior": 1.5})", "yellow_interior"}, std::pair{R"({"cover_hue": 0})", "cover_hue"},
          std::pair{R"({"cover_hue": 181})", "cover_hue"}, std::pair{R"({"verified_swarms": -1})", "verified_swarms"},
          std::pair{R"({"verified_search_share": 0})", "verified_search_share"},
          std::pair{R"({"verified_search_share": 1.5})", "verified_search_share"},
          std::pair{R"({"verified_threshold": 2.5})", "verified_threshold"},
          std::pair{R"({"small_find_threshold": -0.1})", "small_find_threshold"},
          std::pair{R"({"verifier_refusals": -1})", "verifier_refusals"},
          std::pair{R"({"group_floor": 1.2})", "group_floor"}, std::pair{R"({"rim_floor": -0.5})", "rim_floor"},
          std::pair{R"({"paint_blur": -1})", "paint_blur"}, std::pair{R"({"paint_blur": 6})", "paint_blur"},
          std::pair{R"({"angle_respread_fraction": 2})", "angle_respread_fraction"}}) {
        EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c9.json", bad.first)); }).find(bad.second),
                  std::string::npos)
            << bad.first;
    }
    const TrackerSettings tuned = TrackerSettings::load(write_temp(
        "c7.json",
        R"({"detection_columns": 2, "edge_gain": 2.5, "angle_memory": 1, "angle_prior_px": 0, "gpu_team_warps": 4,
            "gpu_cluster_barrier": false, "occluder_credit": 0.25, "yellow_interior": 0.5, "group_floor": 0.3,
            "rim_floor": 0.45, "angle_respread_fraction": 0.3, "cover_hue": 28, "verified_swarms": 8,
            "verified_search_share": 0.5, "verified_regions": false, "verified_threshold": 0.3, "face_regions": true, "stacked_regions": false,
            "small_find_threshold": 0.5, "verifier_refusals": 0, "hide_refused": false, "paint_blur": 0.8})"));
    EXPECT_EQ(tuned.engine.gpu_team_warps, 4);
    EXPECT_FALSE(tuned.engine.gpu_cluster_barrier);
    EXPECT_TRUE(TrackerSettings{}.engine.gpu_cluster_barrier);
    EXPECT_EQ(TrackerSettings{}.search.detection_columns, 0); // auto (tracker/src/detection_tiles.cpp)
    EXPECT_EQ(TrackerSettings{}.search.detection_rows, 0);
    EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c10.json", R"({"gpu_cluster_barrier": 1})")); })
                  .find("gpu_cluster_barrier"),
              std::string::npos);
    EXPECT_EQ(tuned.search.detection_columns, 2);
    EXPECT_DOUBLE_EQ(tuned.fitness.edge_gain, 2.5);
    EXPECT_DOUBLE_EQ(tuned.fitness.occluder_credit, 0.25);
    EXPECT_DOUBLE_EQ(tuned.fitness.yellow_interior, 0.5);
    EXPECT_DOUBLE_EQ(tuned.fitness.cover_hue, 28.0);
    EXPECT_DOUBLE_EQ(tuned.fitness.paint_blur, 0.8);
    EXPECT_DOUBLE_EQ(TrackerSettings{}.fitness.paint_blur, 0.0); // off: docs/usage.md says why
    EXPECT_EQ(tuned.search.verified_swarms, 8);
    EXPECT_DOUBLE_EQ(tuned.fitness.verified_threshold, 0.3);
    EXPECT_EQ(TrackerSettings{}.search.verified_swarms, 16);
    EXPECT_DOUBLE_EQ(tuned.search.verified_search_share, 0.5);
    EXPECT_DOUBLE_EQ(TrackerSettings{}.search.verified_search_share, 0.25);
    EXPECT_FALSE(tuned.search.verified_regions);
    EXPECT_TRUE(TrackerSettings{}.search.verified_regions);
    EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c13.json", R"({"verified_regions": 1})")); })
                  .find("verified_regions"),
              std::string::npos);
    EXPECT_TRUE(tuned.search.face_regions);
    EXPECT_FALSE(TrackerSettings{}.search.face_regions);
    EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c12.json", R"({"face_regions": "yes"})")); })
                  .find("face_regions"),
              std::string::npos);
    EXPECT_FALSE(tuned.search.stacked_regions);
    EXPECT_TRUE(TrackerSettings{}.search.stacked_regions);
    EXPECT_NE(error_of([&] { TrackerSettings::load(write_temp("c13.json", R"({"stacked_regions": 0})")); })
                  .find("stacked_regions"),
              std::string::npos);
    EXPECT_DOUBLE_EQ(TrackerSettings{}.fitness.verified_threshold, 0.25);
    EXPECT_DOUBLE_EQ(tuned.fitness.small_find_threshold, 0.5);
    EXPECT_DOUBLE_EQ(TrackerSettings{}.fitness.small_find_threshold, 0.6);
    EXPECT_EQ(tuned.tracking.verifier_refusals, 0);
    EXPECT_EQ(TrackerSettings{}.tracking.verifier_refusals, 3);
    EXPECT_FALSE(tuned.tracking.hide_refused);
    EXPECT_TRUE(TrackerSettings{}.tracking.hide_refused);
    EXPECT_NE(
        error_of([&] { TrackerSettings::load(write_temp("c14.json", R"({"hide_refused": 1})")); }).find("hide_refused"),
        std::string::npos);
    EXPECT_DOUBLE_EQ(TrackerSettings{}.fitness.cover_hue, 180.0); // every hue, as the paint coverage was built
    EXPECT_DOUBLE_EQ(tuned.fitness.group_floor, 0.3);
    EXPECT_DOUBLE_EQ(tuned.fitness.rim_floor, 0.45);
    EXPECT_DOUBLE_EQ(tuned.tracking.angle_respread_fraction, 0.3);
    EXPECT_DOUBLE_EQ(tuned.tracking.angle_memory, 1.0);
}

// Every preset shipped in the assets' presets/ folder loads by its name; yellow-faces sets the paint coverage's hue
// window that keeps a red rim beside a yellow face red (docs/usage.md, cover_hue), soft-footage the blur allowance.
TEST(Presets, EveryShippedPresetLoadsByName) {
    int presets = 0;
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(assets_dir()) / "presets")) {
        if (e.path().extension() != ".json") continue;
        ++presets;
        EXPECT_NO_THROW(TrackerSettings::load(e.path().stem().string())) << e.path();
    }
    EXPECT_GE(presets, 2);
    EXPECT_DOUBLE_EQ(TrackerSettings::load("yellow-faces").fitness.cover_hue, 28.0);
    EXPECT_DOUBLE_EQ(TrackerSettings::load("soft-footage").fitness.paint_blur, 1.0);
}

TEST(BadInput, PredictionLines) {
    const auto bad = write_temp("p.jsonl", "{\"type\":\"frame\",\"frame\":0}\n{\"type\":\"detection\",\"frame\":0,"
                                           "\"category\":\"stop\",\"pose\":{\"x\":1,\"y\":0},\"box\":[0,0,1,1]}\n");
    const std::string e = error_of([&] { read_predictions(bad); });
    EXPECT_NE(e.find("p.jsonl:2"), std::string::npos);
    EXPECT_NE(e.find("'z'"), std::string::npos);
}

TEST(BadInput, AnUnknownLineTypeIsQuotedOnOneLine) {
    const auto bad = write_temp("t.jsonl", "{\"type\":\"tru\\nth\",\"frame\":0}\n");
    for (const std::string& e : {error_of([&] { read_truth(bad); }), error_of([&] { read_predictions(bad); })}) {
        EXPECT_EQ(e.find('\n'), std::string::npos) << e;
        EXPECT_NE(e.find("t.jsonl:1: field 'type': 'tru\\nth' is not a"), std::string::npos) << e;
    }
}

} // namespace
} // namespace tracker
