// Scratch reader (not built by the project): the verifier class of every detection of a clip, one line each:
// frame track category width class. g++ -std=c++17 verifier_reads.cpp with the tracker and swarm libraries,
// OpenCV (videoio, ml, features2d, calib3d, imgproc, core), spdlog and fmt; run with SWARMTRACK_ASSETS set.
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <opencv2/videoio.hpp>
#include "tracker/verifier.h"
int main(int argc, char** argv) {
    auto v = tracker::SignVerifier::load(tracker::default_verifier_path());
    std::map<int, std::vector<nlohmann::json>> by_frame;
    std::ifstream in(argv[2]);
    std::string line;
    while (std::getline(in, line)) {
        auto d = nlohmann::json::parse(line);
        if (d["type"] == "detection") by_frame[d["frame"].get<int>()].push_back(d);
    }
    cv::VideoCapture cap(argv[1]);
    cv::Mat f;
    for (int i = 0; cap.read(f); ++i) {
        for (auto& d : by_frame[i]) {
            cv::Rect2f b(d["box"][0], d["box"][1], d["box"][2], d["box"][3]);
            std::printf("%d %d %s %.0f %d\n", i, d["track_id"].get<int>(), d["category"].get<std::string>().c_str(), b.width, v->classify(f, b));
        }
    }
}
