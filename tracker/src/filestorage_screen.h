#pragma once
// Screens for files before cv::FileStorage reads them: OpenCV 4.6's YAML reader never returns on some malformed
// documents and its XML reader crashes on some (found by fuzzing), so a file must keep to the layout FileStorage
// itself writes.
#include <istream>
#include <optional>
#include <string>

namespace tracker {

struct ScreenFinding {
    int line = 0;    // 1-based
    std::string why; // one line, for "FILE:LINE: malformed YAML (WHY)" or "... XML (WHY)"
};

// Reads `in` from its second line on (the first is the "%YAML" header). Admitted: blank lines and comments, one
// document ("---" before its text, nothing but comments after "..."), block mappings of "key: value" lines (a key of letters, digits, '_' and '-') indented
// deeper only under a key that opens a block (no value, or a tag alone such as !!opencv-matrix), list items, and
// flow sequences/mappings ("[ 1., 0., ... ]") continued on indented lines. The first line outside it is returned.
std::optional<ScreenFinding> screen_filestorage_yaml(std::istream& in);

// Reads all of `in`: an optional <?xml ...?> declaration, comments, and one root element <opencv_storage> whose
// elements nest and close in order, every tag on one line, with names of letters, digits, '_', '-' and '.',
// attributes written name="value", and text without '<'. The first place outside it is returned.
std::optional<ScreenFinding> screen_filestorage_xml(std::istream& in);

} // namespace tracker
