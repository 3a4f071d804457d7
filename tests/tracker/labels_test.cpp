// Box labels of real footage (CSV and COCO readers) and the stills scoring against them: matching by fitness
// with don't-care signs, average precision, recall by size and the confusion table.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "tracker/eval.h"
#include "tracker/labels.h"
#include "tracker/sign_classes.h"
#include "test_files.h"

namespace tracker {
namespace {

using test::error_of;
using test::write_temp;

TEST(Labels, CategoryNamesAreMatchedLoosely) {
    EXPECT_EQ(parse_category_loose("giveway"), Category::GiveWay);
    EXPECT_EQ(parse_category_loose("Give-Way"), Category::GiveWay);
    EXPECT_EQ(parse_category_loose("give_way"), Category::GiveWay);
    EXPECT_EQ(parse_category_loose("PROHIBITORY"), Category::Prohibitory);
    EXPECT_FALSE(parse_category_loose("noentry").has_value());
    EXPECT_FALSE(parse_category_loose("priority").has_value());
    EXPECT_EQ(parse_category_loose("stop sign"), Category::Stop);
    EXPECT_EQ(parse_category_loose("Warning"), Category::Danger);
    EXPECT_EQ(parse_category_loose("yield"), Category::GiveWay);
    EXPECT_EQ(parse_category_loose("prohibition"), Category::Prohibitory);
    EXPECT_FALSE(parse_category_loose("warnings").has_value());
    EXPECT_EQ(image_key("images/00012.jpg"), "00012");
    EXPECT_EQ(image_key("00012"), "00012");
}

TEST(Labels, CsvRightAndBottomAreInclusive) {
    const auto path = write_temp("labels_ok.csv", "00000;464;247;489;268;11;danger\n"
                                                   "00001;10;20;19;39;13;giveway\n"
                                                   "00001;50;50;59;59;17;noentry\n");
    const LabelSet set = read_labels(path);
    ASSERT_EQ(set.labels.size(), 3u);
    EXPECT_EQ(set.labels[0].image, "00000");
    EXPECT_EQ(set.labels[0].category, Category::Danger);
    EXPECT_FLOAT_EQ(set.labels[0].box.width, 26.f);
    EXPECT_FLOAT_EQ(set.labels[0].box.height, 22.f);
    EXPECT_EQ(set.labels[1].category, Category::GiveWay);
    EXPECT_FALSE(set.labels[2].category.has_value());
    EXPECT_EQ(set.labels[2].name, "noentry");
    EXPECT_EQ(set.images, (std::vector<std::string>{"00000", "00001"}));
}

TEST(Labels, GtsdbLinesTakeTheirCategoryFromTheClassId) {
    // GTSDB's own gt.txt: 6 fields, the images as .ppm; the shipped class list names the categories.
    const auto path = write_temp("gt.txt", "00000.ppm;774;411;815;446;11\n"
                                           "00001.ppm;983;388;1024;432;13\n"
                                           "00001.ppm;386;494;442;552;17\n"
                                           "00002.ppm;10;20;30;40;1;mandatory\n");
    const LabelSet set = read_labels(path);
    ASSERT_EQ(set.labels.size(), 4u);
    EXPECT_EQ(set.labels[0].image, "00000");
    EXPECT_EQ(set.labels[0].category, Category::Danger);
    EXPECT_EQ(set.labels[0].class_id, 11);
    EXPECT_FLOAT_EQ(set.labels[0].box.width, 42.f);
    EXPECT_EQ(set.labels[1].category, Category::GiveWay);
    EXPECT_FALSE(set.labels[2].category.has_value()); // no entry: no model, don't-care
    EXPECT_EQ(set.labels[2].name, "noentry");
    EXPECT_EQ(set.labels[3].category, Category::Mandatory); // a 7th field wins over the class id
    // A class list of one's own.
    std::vector<SignClass> mine(1);
    mine[0].id = 11;
    mine[0].name = "mine";
    mine[0].category_name = "stop";
    const auto one = write_temp("gt_one.txt", "00000.ppm;774;411;815;446;11\n");
    EXPECT_EQ(read_labels_csv(one, &mine).labels[0].category, Category::Stop);
    const auto unknown = write_temp("gt_unknown.txt", "00000.ppm;1;2;3;4;11\n00001.ppm;1;2;3;4;99\n");
    EXPECT_NE(error_of<std::runtime_error>([&] {
                  read_labels(unknown);
              }).find("gt_unknown.txt:2: class_id 99 is not in the sign class list"),
              std::string::npos);
    const auto word = write_temp("gt_word.txt", "00000.ppm;1;2;3;4;danger\n");
    EXPECT_NE(error_of<std::runtime_error>([&] {
                  read_labels(word);
              }).find(":1: field 'class_id': 'danger' is not an integer"),
              std::string::npos);
}

TEST(Labels, MalformedCsvNamesTheLine) {
    const auto few = write_temp("labels_few.csv", "00000;1;2;3;4;11;danger\n00001;1;2;3\n");
    EXPECT_NE(error_of<std::runtime_error>([&] { read_labels_csv(few); }).find("labels_few.csv:2: expected 7 fields"), std::string::npos);
    const auto nan = write_temp("labels_nan.csv", "00000;1;x;3;4;11;danger\n");
    EXPECT_NE(error_of<std::runtime_error>([&] { read_labels_csv(nan); }).find(":1: field 'top'"), std::string::npos);
    const auto huge = write_temp("labels_huge.csv", "00000;1;2;1e300;4;11;danger\n");
    EXPECT_NE(error_of<std::runtime_error>([&] {
                  read_labels_csv(huge);
              }).find(":1: field 'right': '1e300' is not a pixel coordinate"),
              std::string::npos);
    const auto flipped = write_temp("labels_flip.csv", "00000;10;2;3;4;11;danger\n");
    EXPECT_NE(error_of<std::runtime_error>([&] { read_labels_csv(flipped); }).find(":1: right/bottom"), std::string::npos);
    EXPECT_NE(error_of<std::runtime_error>([&] { read_labels_csv(::testing::TempDir() + "/no_such.csv"); }).find("cannot open"),
              std::string::npos);
    EXPECT_NE(error_of<std::runtime_error>([&] { read_labels(few + ".xml"); }).find("unknown label format"),
              std::string::npos);
}

TEST(Labels, CocoDetectionJson) {
    const auto path = write_temp("coco_ok.json", R"({
      "images": [{"id": 1, "file_name": "a/00005.jpg", "width": 816, "height": 480},
                 {"id": 2, "file_name": "00006.png", "width": 816, "height": 480}],
      "categories": [{"id": 7, "name": "give-way"}, {"id": 8, "name": "priority"}, {"id": 9, "name": "Stop"}],
      "annotations": [{"id": 1, "image_id": 1, "category_id": 7, "bbox": [10, 20, 30.5, 40]},
                      {"id": 2, "image_id": 1, "category_id": 8, "bbox": [100, 20, 30, 30]},
                      {"id": 3, "image_id": 1, "category_id": 9, "bbox": [200, 20, 30, 30]}]})");
    const LabelSet set = read_labels(path);
    ASSERT_EQ(set.labels.size(), 3u);
    EXPECT_EQ(set.labels[0].image, "00005");
    EXPECT_EQ(set.labels[0].category, Category::GiveWay);
    EXPECT_FLOAT_EQ(set.labels[0].box.width, 30.5f);
    EXPECT_FALSE(set.labels[1].category.has_value());
    EXPECT_EQ(set.labels[2].category, Category::Stop);
    EXPECT_EQ(set.images, (std::vector<std::string>{"00005", "00006"})); // the signless image too
}

TEST(Labels, MalformedCocoNamesTheEntry) {
    const auto bad_box = write_temp("coco_box.json", R"({"images": [{"id": 1, "file_name": "x.jpg"}],
      "categories": [{"id": 1, "name": "stop"}],
      "annotations": [{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3]}]})");
    EXPECT_NE(error_of<std::runtime_error>([&] { read_labels_coco(bad_box); }).find("annotations[0]: field 'bbox'"), std::string::npos);
    const auto huge_box = write_temp("coco_huge.json", R"({"images": [{"id": 1, "file_name": "x.jpg"}],
      "categories": [{"id": 1, "name": "stop"}],
      "annotations": [{"image_id": 1, "category_id": 1, "bbox": [1, 2, 1e300, 4]}]})");
    EXPECT_NE(error_of<std::runtime_error>([&] {
                  read_labels_coco(huge_box);
              }).find("annotations[0]: field 'bbox': numbers must lie within"),
              std::string::npos);
    const auto bad_image = write_temp("coco_image.json", R"({"images": [{"id": 1, "file_name": "x.jpg"}],
      "categories": [{"id": 1, "name": "stop"}],
      "annotations": [{"image_id": 5, "category_id": 1, "bbox": [1, 2, 3, 4]}]})");
    EXPECT_NE(error_of<std::runtime_error>([&] { read_labels_coco(bad_image); }).find("field 'image_id': 5 is not in images"),
              std::string::npos);
    const auto no_images = write_temp("coco_none.json", R"({"annotations": [], "categories": []})");
    EXPECT_NE(error_of<std::runtime_error>([&] { read_labels_coco(no_images); }).find("field 'images'"), std::string::npos);
    const auto broken = write_temp("coco_broken.json", "{\"images\": [");
    EXPECT_NE(error_of<std::runtime_error>([&] { read_labels_coco(broken); }).find("not valid JSON"), std::string::npos);
}

TEST(RealEval, AveragePrecisionOfAKnownRanking) {
    // Three signs; ranked hit, miss, hit, miss. Precision 1 up to recall 1/3, then 2/3 up to recall 2/3:
    // AP = 1/3 * 1 + 1/3 * 2/3 = 5/9.
    EXPECT_NEAR(average_precision({{0.9, true}, {0.8, false}, {0.7, true}, {0.6, false}}, 3), 5.0 / 9.0, 1e-12);
    // Order of the input does not matter, the scores do.
    EXPECT_NEAR(average_precision({{0.6, false}, {0.7, true}, {0.9, true}, {0.8, false}}, 3), 5.0 / 9.0, 1e-12);
    EXPECT_NEAR(average_precision({{0.5, true}, {0.4, true}}, 2), 1.0, 1e-12);
    EXPECT_NEAR(average_precision({}, 2), 0.0, 1e-12);
    EXPECT_TRUE(std::isnan(average_precision({{0.5, false}}, 0)));
}

Detection det(long long frame, Category c, cv::Rect2f box, double fitness) {
    Detection d;
    d.frame = frame;
    d.category = c;
    d.box = box;
    d.fitness = fitness;
    return d;
}

BoxLabel label(const std::string& image, std::optional<Category> c, cv::Rect2f box) {
    BoxLabel l;
    l.image = image;
    l.category = c;
    l.box = box;
    l.name = c ? std::string(to_string(*c)) : "noentry";
    return l;
}

TEST(RealEval, MatchingDontCareSizesAndConfusion) {
    LabelSet labels;
    // Image 00000: a danger sign 20 px wide, a no-entry sign (don't-care), a stop sign 50 px wide.
    labels.labels.push_back(label("00000", Category::Danger, {100, 100, 20, 20}));
    labels.labels.push_back(label("00000", std::nullopt, {300, 100, 30, 30}));
    labels.labels.push_back(label("00000", Category::Stop, {500, 100, 50, 50}));
    // Image 00001: a mandatory sign 12 px wide that nothing finds.
    labels.labels.push_back(label("00001", Category::Mandatory, {10, 10, 12, 12}));
    // Image 00002 was not processed.
    labels.labels.push_back(label("00002", Category::Danger, {10, 10, 30, 30}));
    PredictionFile pred;
    pred.frames[0] = FrameRecord{0, 816, 480, 4, {}, false, "00000.jpg"};
    pred.frames[1] = FrameRecord{1, 816, 480, 0, {}, false, "00001.jpg"};
    // Two danger predictions on the danger sign: the fitter one matches, the other is a duplicate (fp).
    pred.detections.push_back(det(0, Category::Danger, {101, 100, 20, 20}, 0.7));
    pred.detections.push_back(det(0, Category::Danger, {100, 101, 20, 20}, 0.9));
    // A prohibitory prediction on the no-entry sign: a false positive, counted as on an unmodelled sign.
    pred.detections.push_back(det(0, Category::Prohibitory, {300, 100, 30, 30}, 0.8));
    // The stop sign taken for give-way: a fp of give-way, a miss of stop, found in the any-sign matching.
    pred.detections.push_back(det(0, Category::GiveWay, {500, 100, 50, 50}, 0.75));

    const RealEvalReport r = evaluate_labels(labels, pred);
    EXPECT_EQ(r.images, 2);
    EXPECT_EQ(r.predictions, 4);
    EXPECT_EQ(r.dont_care, 1);
    EXPECT_EQ(r.labels_not_scored, 1);
    const auto& danger = r.per_category[static_cast<int>(Category::Danger)];
    EXPECT_EQ(danger.labels, 1);
    EXPECT_EQ(danger.tp, 1);
    EXPECT_EQ(danger.fp, 1);
    EXPECT_NEAR(danger.ap, 1.0, 1e-12); // the fitter prediction matched, so precision is 1 at recall 1
    const auto& pro = r.per_category[static_cast<int>(Category::Prohibitory)];
    EXPECT_EQ(pro.labels, 0);
    EXPECT_EQ(pro.fp, 1);
    EXPECT_EQ(pro.fp_unmodelled, 1);
    EXPECT_TRUE(std::isnan(pro.ap));
    const auto& stop = r.per_category[static_cast<int>(Category::Stop)];
    EXPECT_EQ(stop.labels, 1);
    EXPECT_EQ(stop.tp, 0);
    EXPECT_EQ(r.per_category[static_cast<int>(Category::GiveWay)].fp, 1);
    EXPECT_EQ(r.per_category[static_cast<int>(Category::Mandatory)].labels, 1);
    // Any sign: danger and stop found (2 of 3); the danger duplicate and the prohibitory are false.
    EXPECT_EQ(r.any.labels, 3);
    EXPECT_EQ(r.any.tp, 2);
    EXPECT_EQ(r.any.fp, 2);
    EXPECT_EQ(r.any.fp_unmodelled, 1);

    // Sizes: 12 px in <15 (missed), 20 px in 20-25 (found), 50 px in 40-80 (found only as any sign).
    ASSERT_EQ(r.sizes.size(), 7u);
    EXPECT_EQ(r.sizes[0].labels, 1);
    EXPECT_EQ(r.sizes[0].found_any, 0);
    EXPECT_EQ(r.sizes[2].labels, 1);
    EXPECT_EQ(r.sizes[2].found, 1);
    EXPECT_EQ(r.sizes[5].labels, 1);
    EXPECT_EQ(r.sizes[5].found, 0);
    EXPECT_EQ(r.sizes[5].found_any, 1);

    // Confusion: danger -> danger, stop -> give-way, mandatory -> missed.
    EXPECT_EQ(r.confusion[static_cast<int>(Category::Danger)][static_cast<int>(Category::Danger)], 1);
    EXPECT_EQ(r.confusion[static_cast<int>(Category::Stop)][static_cast<int>(Category::GiveWay)], 1);
    EXPECT_EQ(r.confusion[static_cast<int>(Category::Mandatory)][k_category_count], 1);
}

TEST(RealEval, LabelBoxesMeetDetectionsWherePixelCentresAreIntegers) {
    // A 12 px sign in columns and rows 100-111 (the CSV's inclusive 100;100;111;111, read as a box 100, 100, 12, 12 of
    // pixel edges). The tracker's coordinates put pixel centres on integers, so the sign's outline runs from 99.5 to
    // 111.5, and a detection exactly on it must match it fully.
    const cv::Rect2f file_box{100, 100, 12, 12};
    const cv::Rect2f on_sign{99.5f, 99.5f, 12, 12};
    EXPECT_EQ(in_image_coordinates(file_box), on_sign);
    LabelSet labels;
    labels.labels.push_back(label("00000", Category::Mandatory, file_box));
    PredictionFile pred;
    pred.frames[0] = FrameRecord{0, 816, 480, 1, {}, false, "00000.jpg"};
    pred.detections.push_back(det(0, Category::Mandatory, on_sign, 0.7));
    RealEvalSettings o;
    o.match_iou = 0.99; // the file's own box is half a pixel off in each direction: IoU 0.85
    EXPECT_EQ(evaluate_labels(labels, pred, o).per_category[static_cast<int>(Category::Mandatory)].tp, 1);
    pred.detections[0].box = file_box;
    EXPECT_EQ(evaluate_labels(labels, pred, o).per_category[static_cast<int>(Category::Mandatory)].tp, 0);
}

TEST(RealEval, BoxFitOfTheMatchedPredictions) {
    // A 16 px mandatory sign found at 0.8 of its width, a tenth of its height low; a 40 px one found exactly.
    LabelSet labels;
    labels.labels.push_back(label("00000", Category::Mandatory, {100, 100, 16, 16})); // 99.5-115.5 in image coordinates
    labels.labels.push_back(label("00000", Category::Mandatory, {300, 100, 40, 40}));
    PredictionFile pred;
    pred.frames[0] = FrameRecord{0, 816, 480, 2, {}, false, "00000.jpg"};
    pred.detections.push_back(det(0, Category::Mandatory, {101.1f, 101.1f, 12.8f, 16.f}, 0.7));
    pred.detections.push_back(det(0, Category::Mandatory, {299.5f, 99.5f, 40.f, 40.f}, 0.8));
    const RealEvalReport r = evaluate_labels(labels, pred);
    const BoxFit& f = r.box_fit[static_cast<int>(Category::Mandatory)];
    ASSERT_EQ(f.iou.size(), 2u);
    EXPECT_NEAR(median(f.width_ratio), 0.9, 1e-5);       // 0.8 and 1
    EXPECT_NEAR(median(f.small_width_ratio), 0.8, 1e-5); // the 16 px sign's alone
    EXPECT_NEAR(median(f.height_ratio), 1.0, 1e-5);
    EXPECT_NEAR(median(f.dx), 0.0, 1e-5);
    EXPECT_NEAR(median(f.dy), 0.05, 1e-5); // 0.1 and 0
    EXPECT_NEAR(f.iou[0] < f.iou[1] ? f.iou[0] : f.iou[1], 12.8 * 14.4 / (256 + 12.8 * 16 - 12.8 * 14.4), 1e-5);
    EXPECT_TRUE(r.box_fit[static_cast<int>(Category::Danger)].iou.empty());
}

TEST(RealEval, MatchingByFitnessGivesTheSignToTheFitterPrediction) {
    // Two predictions on one sign: by IoU the closer one would match; by fitness the fitter one does.
    GroundTruth g;
    g.category = Category::Danger;
    g.box = {100, 100, 20, 20};
    const Detection close = det(0, Category::Danger, {100, 100, 20, 20}, 0.6);
    const Detection fit = det(0, Category::Danger, {102, 100, 20, 20}, 0.9);
    MatchOptions o;
    EXPECT_EQ(match_frame({&g}, {&close, &fit}, o)[0], 0);
    o.by_fitness = true;
    EXPECT_EQ(match_frame({&g}, {&close, &fit}, o)[0], 1);
    // Another category matches only when categories are ignored.
    const Detection stop = det(0, Category::Stop, {100, 100, 20, 20}, 0.9);
    EXPECT_EQ(match_frame({&g}, {&stop}, o)[0], -1);
    o.any_category = true;
    EXPECT_EQ(match_frame({&g}, {&stop}, o)[0], 0);
}

TEST(RealEval, PredictionsWithoutImageNamesAreRefused) {
    PredictionFile pred;
    pred.frames[0] = FrameRecord{0, 816, 480, 0, {}, false, ""};
    EXPECT_NE(error_of<std::runtime_error>([&] { evaluate_labels(LabelSet{}, pred); }).find("--stills"), std::string::npos);
}

TEST(RealEval, FrameRecordsKeepTheirImageName) {
    FrameRecord f{3, 816, 480, 0, {}, false, "00003.jpg"};
    const auto path = write_temp("stills.jsonl", to_json_line(f) + "\n" + to_json_line(FrameRecord{4, 816, 480, 0, {}, false, ""}) + "\n");
    const PredictionFile p = read_predictions(path);
    EXPECT_EQ(p.frames.at(3).file, "00003.jpg");
    EXPECT_EQ(p.frames.at(4).file, "");
}

// Sign classes: the CSV's class_id reaches the labels, and the scoring counts the class of every prediction matched
// to a label of its category (right, wrong, unknown), per category, per class and as a confusion.
TEST(RealEval, ClassesOfMatchedPredictions) {
    const auto path = write_temp("labels_classes.csv", "00000;100;100;119;119;3;prohibitory\n"
                                                       "00000;200;100;219;119;1;prohibitory\n"
                                                       "00000;300;100;319;119;25;danger\n"
                                                       "00000;400;100;419;119;17;noentry\n"
                                                       "00000;500;100;519;119;x;mandatory\n");
    const LabelSet labels = read_labels(path);
    ASSERT_EQ(labels.labels.size(), 5u);
    EXPECT_EQ(labels.labels[0].class_id, 3);
    EXPECT_EQ(labels.labels[2].class_id, 25);
    EXPECT_EQ(labels.labels[4].class_id, -1) << "a class_id that is no number is no class, not an error";
    PredictionFile pred;
    pred.frames[0] = FrameRecord{0, 816, 480, 5, {}, false, "00000.jpg"};
    auto with_class = [](Detection d, int id) {
        d.class_id = id;
        return d;
    };
    pred.detections.push_back(with_class(det(0, Category::Prohibitory, {100, 100, 20, 20}, 0.9), 3)); // right
    pred.detections.push_back(with_class(det(0, Category::Prohibitory, {200, 100, 20, 20}, 0.9), 2)); // wrong
    pred.detections.push_back(with_class(det(0, Category::Danger, {300, 100, 20, 20}, 0.9), -1));     // unknown
    pred.detections.push_back(with_class(det(0, Category::Prohibitory, {400, 100, 20, 20}, 0.9), 9)); // on no-entry
    pred.detections.push_back(with_class(det(0, Category::Mandatory, {500, 100, 20, 20}, 0.9), 38));  // label has none
    const RealEvalReport r = evaluate_labels(labels, pred);
    EXPECT_EQ(r.class_all.matched, 3);
    EXPECT_EQ(r.class_all.right, 1);
    EXPECT_EQ(r.class_all.unknown, 1);
    const auto& pro = r.class_per_category[static_cast<int>(Category::Prohibitory)];
    EXPECT_EQ(pro.matched, 2);
    EXPECT_EQ(pro.right, 1);
    EXPECT_DOUBLE_EQ(pro.accuracy(), 0.5);
    EXPECT_EQ(r.class_per_class.at(1).matched, 1);
    EXPECT_EQ(r.class_per_class.at(1).right, 0);
    EXPECT_EQ(r.class_confusion.at({1, 2}), 1);
    EXPECT_EQ(r.class_confusion.at({25, -1}), 1);
    EXPECT_EQ(r.class_confusion.count({3, 3}), 0u) << "the confusion lists mistakes only";
}

TEST(RealEval, ClassesSurviveTheJsonLinesAndOldFilesReadAsUnknown) {
    Detection d = det(4, Category::Mandatory, {1, 2, 3, 4}, 0.8);
    d.class_id = 38;
    d.class_name = "keep right";
    d.class_confidence = 0.75;
    const auto path = write_temp("classes.jsonl", to_json_line(d) + "\n" +
                                                      R"({"type":"detection","frame":5,"category":"danger","pose":{"x":0,"y":0,"z":9,"yaw":0,"pitch":0,"roll":0},"box":[1,2,3,4]})" +
                                                      "\n");
    const PredictionFile p = read_predictions(path);
    ASSERT_EQ(p.detections.size(), 2u);
    EXPECT_EQ(p.detections[0].class_id, 38);
    EXPECT_EQ(p.detections[0].class_name, "keep right");
    EXPECT_DOUBLE_EQ(p.detections[0].class_confidence, 0.75);
    EXPECT_EQ(p.detections[1].class_id, -1);
    EXPECT_EQ(p.detections[1].class_name, "unknown");
    const auto bad = write_temp("classes_bad.jsonl", R"({"type":"detection","frame":5,"category":"danger","pose":{"x":0,"y":0,"z":9,"yaw":0,"pitch":0,"roll":0},"box":[1,2,3,4],"class_id":-7})" "\n");
    EXPECT_NE(error_of<std::runtime_error>([&] { read_predictions(bad); }).find("field 'class_id'"), std::string::npos);
}

} // namespace
} // namespace tracker
