#pragma once
// Box labels of real footage, for scoring stills: the GTSDB dev set's CSV (`file;left;top;right;bottom;class_id;
// category`, right/bottom inclusive), GTSDB's own gt.txt (the same without the category, which the class id gives)
// and COCO detection JSON (images, annotations with bbox [x, y, w, h], categories). A label whose category the tracker has no model for keeps its name but no Category: it is
// don't-care in the scoring (tracker/eval.h, evaluate_labels).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <opencv2/core.hpp>

#include "tracker/types.h"

namespace tracker {

struct SignClass;

struct BoxLabel {
    std::string image;                // image key (image_key of the file name)
    cv::Rect2f box;                   // pixels, x, y, width, height (right/bottom exclusive)
    std::optional<Category> category; // empty: no model for this kind of sign
    std::string name;                 // the category as the file spells it
    int class_id = -1;                // the sign's GTSRB class (CSV's class_id; -1 where the file gives none)
};

struct LabelSet {
    std::vector<BoxLabel> labels;
    std::vector<std::string> images; // image keys the file lists, sorted, unique (COCO lists signless images too)
};

// The name an image is matched by: the file name without folders and extension ("a/00012.jpg" -> "00012"), so a
// CSV's "00012", a COCO "images/00012.jpg" and a frame record's "00012.jpg" meet.
std::string image_key(std::string_view file);
// Category names as label files spell them: case, '-', '_' and spaces do not matter ("Give-Way", "giveway",
// "give_way"), and a few other label sets' names for them ("warning", "yield", "stop sign", "prohibition"). Unknown
// names give nullopt.
std::optional<Category> parse_category_loose(std::string_view name);

// Throw std::runtime_error "PATH:LINE: reason" (CSV) or "PATH: annotations[i]: field 'F': reason" (COCO).
// A CSV line of 6 fields (GTSDB's gt.txt: no category) takes the category of its class id in `classes`, or where
// that is null in the shipped class list (assets/classes/classes.json, read only when such a line comes).
LabelSet read_labels_csv(const std::string& path, const std::vector<SignClass>* classes = nullptr);
LabelSet read_labels_coco(const std::string& path);
// By extension: .csv and .txt (GTSDB's gt.txt) are the CSV, .json COCO; anything else throws naming them.
LabelSet read_labels(const std::string& path);

// A label's box where the tracker's boxes are. Label files give pixel edges (pixel i spans [i, i + 1), as COCO and
// the CSV's inclusive right edge mean); the tracker's image coordinates put pixel centres on integers (OpenCV's
// convention, and the camera's principal point (width - 1) / 2), where pixel i spans [i - 0.5, i + 0.5]. Compare
// detections with this box, not the file's: half a pixel each way costs a 15 px sign's box 0.12 of its IoU.
cv::Rect2f in_image_coordinates(const cv::Rect2f& label_box);

} // namespace tracker
