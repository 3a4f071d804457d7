#include "tracker/sign_classes.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include <nlohmann/json.hpp>
#include <opencv2/ml.hpp>

#include "common/rectify_math.h"
#include "face_maps.h"
#include "tracker/assets.h"
#include "tracker/labels.h"

namespace tracker {
namespace {

const char* k_list_file = "classes.json";
const char* k_machine_file = "classifier.yml.gz";
const char* k_retrain = "rebuild it with tools/train_classes or set classes to \"none\"";

std::string category_key(Category c) {
    std::string s;
    for (const char ch : to_string(c)) {
        if (ch != '-') s.push_back(ch);
    }
    return s; // "giveway": the spelling FileStorage keys and the dev set's labels use
}

// Each row of 8-bit pixels to zero mean and unit length (CV_32F; a flat row gives zeros): the contrast
// normalisation that makes the kernel a function of normalised cross-correlation.
void normalise_rows(const cv::Mat& faces8, cv::Mat& out) {
    out.create(faces8.rows, faces8.cols, CV_32F);
    for (int r = 0; r < faces8.rows; ++r) {
        const std::uint8_t* src = faces8.ptr<std::uint8_t>(r);
        float* dst = out.ptr<float>(r);
        double mean = 0;
        for (int c = 0; c < faces8.cols; ++c) mean += src[c];
        mean /= std::max(1, faces8.cols);
        double norm = 0;
        for (int c = 0; c < faces8.cols; ++c) {
            const double v = src[c] - mean;
            norm += v * v;
        }
        const double inv = norm > 1e-9 ? 1.0 / std::sqrt(norm) : 0.0;
        for (int c = 0; c < faces8.cols; ++c) dst[c] = static_cast<float>((src[c] - mean) * inv);
    }
}

// The pixels of a face inside a mask, in mask_indices order (1 x n, CV_8U).
cv::Mat masked_pixels(const cv::Mat& face, const std::vector<int>& indices) {
    CV_Assert(face.type() == CV_8U && face.rows == k_face_side && face.cols == k_face_side);
    cv::Mat row(1, static_cast<int>(indices.size()), CV_8U);
    const cv::Mat f = face.isContinuous() ? face : face.clone();
    for (std::size_t i = 0; i < indices.size(); ++i) row.at<std::uint8_t>(0, static_cast<int>(i)) = f.data[indices[i]];
    return row;
}

} // namespace

std::string default_classes_dir() { return assets_dir() + "/classes"; }

std::vector<int> mask_indices(const FaceMask& mask) {
    std::vector<int> m;
    const float side = static_cast<float>(k_face_side);
    for (int r = 0; r < k_face_side; ++r) {
        for (int c = 0; c < k_face_side; ++c) {
            const float dx = (c + 0.5f) / side - mask.cx, dy = (r + 0.5f) / side - mask.cy;
            if (dx * dx + dy * dy <= mask.radius * mask.radius) m.push_back(r * k_face_side + c);
        }
    }
    return m;
}

FaceMask face_mask_for(const SignModel& model, float fraction) {
    FaceMask m;
    if (model.outline.size() < 3) return m;
    float x0 = model.outline[0].x, x1 = x0, y0 = model.outline[0].y, y1 = y0;
    for (const auto& p : model.outline) {
        x0 = std::min(x0, p.x);
        x1 = std::max(x1, p.x);
        y0 = std::min(y0, p.y);
        y1 = std::max(y1, p.y);
    }
    // The largest circle about the origin inside the outline: the distance to the nearest edge.
    float inner = std::numeric_limits<float>::max();
    const std::size_t n = model.outline.size();
    for (std::size_t i = 0; i < n; ++i) {
        const cv::Point2f a(model.outline[i].x, model.outline[i].y);
        const cv::Point2f b(model.outline[(i + 1) % n].x, model.outline[(i + 1) % n].y);
        const cv::Point2f ab = b - a;
        const float t = std::clamp(-a.dot(ab) / std::max(ab.dot(ab), 1e-12f), 0.f, 1.f);
        inner = std::min(inner, static_cast<float>(cv::norm(a + t * ab)));
    }
    const float w = x1 - x0, h = y1 - y0;
    if (!(w > 0) || !(h > 0)) return m;
    m.cx = -x0 / w;
    m.cy = -y0 / h;
    m.radius = fraction * inner / std::max(w, h);
    return m;
}

cv::Mat face_vector(const cv::Mat& face, const FaceMask& mask) {
    cv::Mat out;
    normalise_rows(masked_pixels(face, mask_indices(mask)), out);
    return out;
}

math::FaceMap face_map_for(const Camera& camera, const SignModel& model, const Pose& pose) {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    if (!model.outline.empty()) {
        x0 = x1 = model.outline[0].x;
        y0 = y1 = model.outline[0].y;
        for (const auto& p : model.outline) {
            x0 = std::min(x0, p.x);
            x1 = std::max(x1, p.x);
            y0 = std::min(y0, p.y);
            y1 = std::max(y1, p.y);
        }
    }
    const auto r = math::rigid_from_params(static_cast<float>(pose.x / pose.z), static_cast<float>(pose.y / pose.z),
                                           static_cast<float>(pose.z), static_cast<float>(pose.yaw),
                                           static_cast<float>(pose.pitch), static_cast<float>(pose.roll));
    const math::Intrinsics k{static_cast<float>(camera.fx), static_cast<float>(camera.fy), static_cast<float>(camera.cx),
                             static_cast<float>(camera.cy)};
    math::FaceMap m = math::face_map_from_pose(r, k, x0, y0, x1, y1);
    // The face's extent in the image: the sign's width at its depth.
    const float extent = static_cast<float>(camera.fx) * std::max(x1 - x0, y1 - y0) / static_cast<float>(pose.z);
    m.samples = math::face_samples(extent, k_face_side);
    return m;
}

math::FaceMap face_map_for_box(const cv::Rect2f& box) {
    math::FaceMap m = math::face_map_from_box(box.x, box.y, box.width, box.height);
    m.samples = math::face_samples(std::max(box.width, box.height), k_face_side);
    return m;
}

void rectify_faces_cpu(const cv::Mat& bgr, const std::vector<math::FaceMap>& maps, std::vector<cv::Mat>& faces) {
    CV_Assert(bgr.type() == CV_8UC3);
    faces.resize(maps.size());
    for (std::size_t i = 0; i < maps.size(); ++i) {
        faces[i].create(k_face_side, k_face_side, CV_8U);
        for (int row = 0; row < k_face_side; ++row) {
            for (int col = 0; col < k_face_side; ++col) {
                faces[i].at<std::uint8_t>(row, col) =
                    math::face_pixel(bgr.data, bgr.step, bgr.cols, bgr.rows, maps[i], k_face_side, col, row);
            }
        }
    }
}

cv::Mat rectify_face(const cv::Mat& bgr, const Camera& camera, const SignModel& model, const Pose& pose) {
    std::vector<cv::Mat> faces;
    rectify_faces_cpu(bgr, {face_map_for(camera, model, pose)}, faces);
    return faces[0];
}

cv::Mat rectify_box(const cv::Mat& bgr, const cv::Rect2f& box) {
    std::vector<cv::Mat> faces;
    rectify_faces_cpu(bgr, {face_map_for_box(box)}, faces);
    return faces[0];
}

std::vector<SignClass> SignClassifier::load_class_list(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        throw std::runtime_error(path + ": sign class list not found; reinstall, point the classes setting at a folder "
                                        "with classes.json and classifier.yml.gz, or set it to \"none\"");
    }
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(path + ": not valid JSON (" + std::string(e.what()) + "); fix the file or reinstall it");
    }
    if (!doc.is_object() || !doc.contains("classes") || !doc["classes"].is_array() || doc["classes"].empty()) {
        throw std::runtime_error(path + ": expected {\"classes\": [{\"id\", \"name\", \"category\"}, ...]}; fix the file "
                                        "or reinstall it");
    }
    std::vector<SignClass> out;
    std::size_t i = 0;
    for (const auto& e : doc["classes"]) {
        const std::string where = path + ": classes[" + std::to_string(i++) + "]: ";
        if (!e.is_object() || !e.contains("id") || !e["id"].is_number_integer() || !e.contains("name") ||
            !e["name"].is_string() || !e.contains("category") || !e["category"].is_string()) {
            throw std::runtime_error(where + "needs an integer \"id\" and string \"name\" and \"category\"");
        }
        SignClass c;
        c.id = e["id"].get<int>();
        c.name = e["name"].get<std::string>();
        c.category_name = e["category"].get<std::string>();
        c.category = parse_category_loose(c.category_name);
        if (c.id < 0 || c.name.empty() || c.category_name.empty()) {
            throw std::runtime_error(where + "id must be >= 0 and name and category non-empty");
        }
        for (const auto& o : out) {
            if (o.id == c.id) throw std::runtime_error(where + "id " + std::to_string(c.id) + " appears twice");
        }
        out.push_back(std::move(c));
    }
    return out;
}

std::unique_ptr<SignClassifier> SignClassifier::load(const std::string& dir_in) {
    const std::string dir = dir_in.empty() ? default_classes_dir() : dir_in;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
        throw std::runtime_error(dir + ": sign class folder not found; point the classes setting at a folder with "
                                       "classes.json and classifier.yml.gz, or set it to \"none\"");
    }
    auto classes = load_class_list(dir + "/" + k_list_file);
    const std::string path = dir + "/" + k_machine_file;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw std::runtime_error(path + ": sign classifier not found; " + std::string(k_retrain));
    }
    std::map<Category, CategoryMachine> machines;
    double min_conf = 0;
    const std::string bad = path + ": not a sign classifier of this version; " + k_retrain;
    try {
        cv::FileStorage fs(path, cv::FileStorage::READ);
        if (!fs.isOpened() || fs["face_side"].empty() || static_cast<int>(fs["face_side"]) != k_face_side) {
            throw std::runtime_error(bad);
        }
        min_conf = static_cast<double>(fs["min_confidence"]);
        for (int ci = 0; ci < k_category_count; ++ci) {
            const auto cat = static_cast<Category>(ci);
            const cv::FileNode n = fs[category_key(cat)];
            if (n.empty()) continue;
            CategoryMachine m;
            n["classes"] >> m.classes;
            m.gamma = static_cast<double>(n["gamma"]);
            std::vector<float> mask;
            n["mask"] >> mask;
            if (mask.size() != 3 || !(mask[2] > 0) || mask[2] > 1) throw std::runtime_error(bad);
            m.mask = {mask[0], mask[1], mask[2]};
            n["faces"] >> m.faces;
            n["offsets"] >> m.offsets;
            n["alpha"] >> m.alpha;
            n["index"] >> m.index;
            n["rho"] >> m.rho;
            const std::size_t k = m.classes.size();
            const std::size_t funcs = k * (k - 1) / 2;
            if (k < 2 || m.faces.type() != CV_8U || m.faces.cols != static_cast<int>(mask_indices(m.mask).size()) ||
                m.rho.size() != funcs || m.offsets.size() != funcs + 1 || m.offsets.back() != static_cast<int>(m.alpha.size()) ||
                m.alpha.size() != m.index.size() || !(m.gamma > 0)) {
                throw std::runtime_error(bad);
            }
            for (int idx : m.index) {
                if (idx < 0 || idx >= m.faces.rows) throw std::runtime_error(bad);
            }
            for (std::size_t d = 0; d < funcs; ++d) {
                if (m.offsets[d] > m.offsets[d + 1]) throw std::runtime_error(bad);
            }
            normalise_rows(m.faces, m.templates);
            machines.emplace(cat, std::move(m));
        }
    } catch (const cv::Exception&) {
        throw std::runtime_error(bad);
    }
    return std::make_unique<SignClassifier>(std::move(classes), std::move(machines), min_conf);
}

SignClassifier::SignClassifier(std::vector<SignClass> classes, std::map<Category, CategoryMachine> machines,
                               double min_confidence)
    : m_classes(std::move(classes)), m_machines(std::move(machines)), m_min_confidence(min_confidence) {
    for (auto& [cat, m] : m_machines) {
        if (m.templates.empty() && !m.faces.empty()) normalise_rows(m.faces, m.templates);
    }
}

std::string SignClassifier::name(int class_id) const {
    for (const auto& c : m_classes) {
        if (c.id == class_id) return c.name;
    }
    return "unknown";
}

ClassScores SignClassifier::classify(Category category, const cv::Mat& face) const {
    ClassScores out;
    const auto it = m_machines.find(category);
    if (it == m_machines.end()) {
        // A category of one class (give-way, stop) is that class.
        int only = -1, count = 0;
        for (const auto& c : m_classes) {
            if (c.category == category) {
                only = c.id;
                ++count;
            }
        }
        if (count == 1) {
            out.class_id = only;
            out.confidence = 1;
            out.scores = {{only, 1.0, 1.0}};
        }
        return out;
    }
    const CategoryMachine& m = it->second;
    const cv::Mat q = face_vector(face, m.mask);
    // Kernel values against every template: |q - t|^2 = 2 - 2 q.t for unit vectors (a flat face, q = 0, is 1 away
    // from every template).
    cv::Mat dots = m.templates * q.t();
    const float qq = static_cast<float>(q.dot(q));
    std::vector<double> kernel(static_cast<std::size_t>(m.templates.rows));
    for (int r = 0; r < m.templates.rows; ++r) {
        const double d2 = std::max(0.0, qq + 1.0 - 2.0 * dots.at<float>(r, 0));
        kernel[static_cast<std::size_t>(r)] = std::exp(-m.gamma * d2);
    }
    // The answer is OpenCV's: the class with the most duels won. Its confidence: each duel (i, j) gives i the
    // logistic of its decision value and j the rest, averaged over the class's k - 1 duels (1 for a class that wins
    // every duel by a wide margin, near 0.5 for one that ties; a simple pairwise coupling).
    const int k = static_cast<int>(m.classes.size());
    std::vector<int> votes(static_cast<std::size_t>(k), 0);
    std::vector<double> share(static_cast<std::size_t>(k), 0.0);
    int d = 0;
    for (int i = 0; i < k; ++i) {
        for (int j = i + 1; j < k; ++j, ++d) {
            double sum = -m.rho[static_cast<std::size_t>(d)];
            for (int t = m.offsets[static_cast<std::size_t>(d)]; t < m.offsets[static_cast<std::size_t>(d) + 1]; ++t) {
                sum += m.alpha[static_cast<std::size_t>(t)] * kernel[static_cast<std::size_t>(m.index[static_cast<std::size_t>(t)])];
            }
            ++votes[static_cast<std::size_t>(sum > 0 ? i : j)];
            const double p = 1.0 / (1.0 + std::exp(-sum));
            share[static_cast<std::size_t>(i)] += p;
            share[static_cast<std::size_t>(j)] += 1.0 - p;
        }
    }
    int best = 0;
    for (int i = 1; i < k; ++i) {
        if (votes[static_cast<std::size_t>(i)] > votes[static_cast<std::size_t>(best)]) best = i;
    }
    for (int i = 0; i < k; ++i) {
        const auto ui = static_cast<std::size_t>(i);
        out.scores.push_back({m.classes[ui], votes[ui] / double(k - 1), share[ui] / (k - 1)});
    }
    out.confidence = share[static_cast<std::size_t>(best)] / (k - 1);
    out.class_id = out.confidence >= m_min_confidence ? m.classes[static_cast<std::size_t>(best)] : -1;
    return out;
}

void SignClassifier::save_machines(const std::string& path, const std::map<Category, CategoryMachine>& machines,
                                   double min_confidence) {
    cv::FileStorage fs(path, cv::FileStorage::WRITE | cv::FileStorage::BASE64);
    if (!fs.isOpened()) throw std::runtime_error(path + ": cannot write; check the folder");
    fs << "face_side" << k_face_side << "min_confidence" << min_confidence;
    for (const auto& [cat, m] : machines) {
        fs << category_key(cat) << "{";
        fs << "classes" << m.classes << "gamma" << m.gamma
           << "mask" << std::vector<float>{m.mask.cx, m.mask.cy, m.mask.radius} << "faces" << m.faces << "offsets" << m.offsets
           << "alpha" << m.alpha << "index" << m.index << "rho" << m.rho;
        fs << "}";
    }
}

CategoryMachine train_category_machine(const std::vector<cv::Mat>& faces, const std::vector<int>& class_ids,
                                       const FaceMask& mask, double gamma, double c) {
    CV_Assert(faces.size() == class_ids.size() && !faces.empty());
    const int n = static_cast<int>(faces.size());
    const std::vector<int> indices = mask_indices(mask);
    cv::Mat raw(n, static_cast<int>(indices.size()), CV_8U);
    for (int i = 0; i < n; ++i) masked_pixels(faces[static_cast<std::size_t>(i)], indices).copyTo(raw.row(i));
    cv::Mat x;
    normalise_rows(raw, x);
    cv::Mat y(n, 1, CV_32S);
    for (int i = 0; i < n; ++i) y.at<int>(i) = class_ids[static_cast<std::size_t>(i)];

    auto svm = cv::ml::SVM::create();
    svm->setType(cv::ml::SVM::C_SVC);
    svm->setKernel(cv::ml::SVM::RBF);
    svm->setGamma(gamma);
    svm->setC(c);
    svm->setTermCriteria(cv::TermCriteria(cv::TermCriteria::MAX_ITER + cv::TermCriteria::EPS, 10000, 1e-4));
    svm->train(x, cv::ml::ROW_SAMPLE, y);

    CategoryMachine m;
    m.mask = mask;
    m.classes = class_ids;
    std::sort(m.classes.begin(), m.classes.end());
    m.classes.erase(std::unique(m.classes.begin(), m.classes.end()), m.classes.end());
    m.gamma = gamma;
    // Support vectors are training rows: keep the 8-bit faces they came from (found by their exact floats).
    const cv::Mat sv = svm->getSupportVectors();
    std::unordered_map<std::string, int> row_of;
    for (int i = 0; i < n; ++i) {
        row_of.emplace(std::string(reinterpret_cast<const char*>(x.ptr(i)), x.cols * sizeof(float)), i);
    }
    m.faces.create(sv.rows, raw.cols, CV_8U);
    for (int s = 0; s < sv.rows; ++s) {
        const auto f = row_of.find(std::string(reinterpret_cast<const char*>(sv.ptr(s)), sv.cols * sizeof(float)));
        CV_Assert(f != row_of.end());
        raw.row(f->second).copyTo(m.faces.row(s));
    }
    normalise_rows(m.faces, m.templates);
    const int k = static_cast<int>(m.classes.size());
    m.offsets.push_back(0);
    for (int d = 0; d < k * (k - 1) / 2; ++d) {
        cv::Mat alpha, index;
        const double rho = svm->getDecisionFunction(d, alpha, index);
        cv::Mat a64;
        alpha.convertTo(a64, CV_64F);
        for (int t = 0; t < index.cols * index.rows; ++t) {
            m.alpha.push_back(static_cast<float>(a64.at<double>(t)));
            m.index.push_back(index.at<int>(t));
        }
        m.rho.push_back(static_cast<float>(rho));
        m.offsets.push_back(static_cast<int>(m.alpha.size()));
    }
    return m;
}

ClassScores ClassVotes::add(int track_id, long long frame, double weight, const ClassScores& frame_scores,
                            double min_confidence) {
    Tally& t = m_tracks[track_id];
    t.last_frame = frame;
    if (!frame_scores.scores.empty() && weight > 0) {
        for (const auto& e : frame_scores.scores) {
            auto& [votes, share] = t.score[e.class_id];
            votes += weight * e.votes;
            share += weight * e.share;
        }
        t.weight += weight;
    }
    ClassScores out;
    if (t.weight <= 0) return out;
    int best = -1;
    double best_votes = -1, best_share = 0;
    for (const auto& [id, vs] : t.score) {
        out.scores.push_back({id, vs.first / t.weight, vs.second / t.weight});
        if (vs.first > best_votes || (vs.first == best_votes && vs.second > best_share)) {
            best_votes = vs.first;
            best_share = vs.second;
            best = id;
        }
    }
    out.confidence = best_share / t.weight;
    out.class_id = out.confidence >= min_confidence ? best : -1;
    return out;
}

void ClassVotes::forget_older_than(long long frame, long long max_age) {
    for (auto it = m_tracks.begin(); it != m_tracks.end();) {
        it = frame - it->second.last_frame > max_age ? m_tracks.erase(it) : std::next(it);
    }
}

} // namespace tracker
