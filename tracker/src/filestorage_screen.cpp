#include "filestorage_screen.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>
#include <vector>

#include "printable_text.h"

namespace tracker {
namespace {

bool is_key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

// The layout's state from one line to the next.
struct Layout {
    std::vector<size_t> blocks{0}; // the indents of the open block mappings, innermost last
    bool opens_block = false;      // the last line may be followed by a deeper one
    int flow_depth = 0;            // open '[' and '{' of a flow value continued over lines
    bool content = false;          // a block line has been read
    bool ended = false;            // "..." has been read
};

// Brackets of a flow value, quotes skipped; a negative depth or an unclosed quote is an error.
std::optional<std::string> count_flow(const std::string& text, int& depth) {
    char quote = 0;
    for (char c : text) {
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if (c == ']' || c == '}') {
            if (--depth < 0) return "a ']' or '}' that closes nothing";
        }
    }
    if (quote) return "a quoted text that does not end on its line";
    return std::nullopt;
}

// A value after "key: " or "- ": a scalar, a quoted text, a flow value, or a tag alone (opens a block).
std::optional<std::string> read_value(std::string value, Layout& layout) {
    if (value[0] == '!') {
        const size_t end = value.find(' ');
        const size_t rest = end == std::string::npos ? end : value.find_first_not_of(' ', end);
        if (rest == std::string::npos) {
            layout.opens_block = true;
            return std::nullopt;
        }
        value = value.substr(rest);
    }
    const char c = value[0];
    const bool number = (c == '-' || c == '+') && value.size() > 1 &&
                        (std::isdigit(static_cast<unsigned char>(value[1])) || value[1] == '.');
    if (!number && !std::isalnum(static_cast<unsigned char>(c)) && !std::strchr("._\"'[{", c)) {
        return "a value starting with '" + printable(value.substr(0, 1)) + "'";
    }
    return count_flow(value, layout.flow_depth);
}

std::optional<std::string> read_block_line(const std::string& line, size_t indent, Layout& layout) {
    if (layout.opens_block && indent > layout.blocks.back()) {
        layout.blocks.push_back(indent);
    } else {
        while (layout.blocks.back() > indent) layout.blocks.pop_back();
        if (layout.blocks.back() != indent) return "an indent that matches no open block";
    }
    layout.opens_block = false;
    size_t at = indent;
    const bool item = line[at] == '-' && (at + 1 == line.size() || line[at + 1] == ' ');
    if (item) {
        at = line.find_first_not_of(' ', at + 1);
        if (at == std::string::npos) {
            layout.opens_block = true;
            return std::nullopt;
        }
    }
    size_t key_end = at;
    if (std::isalpha(static_cast<unsigned char>(line[at])) || line[at] == '_') {
        while (key_end < line.size() && is_key_char(line[key_end])) ++key_end;
    }
    const size_t colon = key_end > at ? line.find_first_not_of(' ', key_end) : std::string::npos;
    if (colon != std::string::npos && line[colon] == ':' && (colon + 1 == line.size() || line[colon + 1] == ' ')) {
        if (item) layout.blocks.push_back(at); // the item's mapping continues at its key's column
        const size_t value = line.find_first_not_of(' ', colon + 1);
        if (value == std::string::npos) {
            layout.opens_block = true;
            return std::nullopt;
        }
        return read_value(line.substr(value), layout);
    }
    if (item) return read_value(line.substr(at), layout);
    return "not 'key: value', a list item or a continued sequence";
}

std::optional<std::string> read_line(const std::string& line, Layout& layout) {
    const size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos || line[indent] == '#') return std::nullopt;
    if (line[indent] == '\t') return "a tab in the indentation";
    if (layout.flow_depth > 0) {
        if (indent == 0) return "a sequence continued without indentation";
        return count_flow(line.substr(indent), layout.flow_depth);
    }
    if (layout.ended) return "text after the document's end ('...')";
    const bool marker = indent == 0 && line.find_first_not_of(' ', 3) == std::string::npos;
    if (marker && line.rfind("---", 0) == 0) {
        if (layout.content) return "a second document ('---' after the first one's text)";
        return std::nullopt;
    }
    if (marker && line.rfind("...", 0) == 0) {
        layout.ended = true;
        return std::nullopt;
    }
    layout.content = true;
    return read_block_line(line, indent, layout);
}

bool is_name_char(char c) { return is_key_char(c) || c == '.'; }

// A cursor over an XML text that knows its line.
struct XmlCursor {
    const std::string& text;
    size_t at = 0;

    bool done() const { return at >= text.size(); }
    bool starts(const char* s) const { return text.compare(at, std::strlen(s), s) == 0; }
    int line() const { return 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n')); }
    void skip_space() {
        while (!done() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    }
    // FileStorage writes every tag and declaration on one line (OpenCV's reader crashes on some that are not).
    bool tag_on_one_line() const {
        const size_t end = text.find('>', at);
        return end != std::string::npos && text.find('\n', at) > end;
    }
    // Moves past the next `end`; false when the text has none.
    bool skip_past(const char* end) {
        const size_t found = text.find(end, at);
        if (found == std::string::npos) return false;
        at = found + std::strlen(end);
        return true;
    }
    std::string name() {
        const size_t from = at;
        if (!done() && (std::isalpha(static_cast<unsigned char>(text[at])) || text[at] == '_')) {
            while (!done() && is_name_char(text[at])) ++at;
        }
        return text.substr(from, at - from);
    }
};

// After "<name": attributes, then ">" or "/>". Returns the error, or nothing; `closed` tells "/>".
std::optional<std::string> read_attributes(XmlCursor& c, bool& closed) {
    for (;;) {
        c.skip_space();
        if (c.starts("/>") || c.starts(">")) {
            closed = c.starts("/>");
            c.at += closed ? 2 : 1;
            return std::nullopt;
        }
        if (c.name().empty()) return "a tag that is not <name attribute=\"value\">";
        if (c.done() || c.text[c.at] != '=') return "an attribute not written name=\"value\"";
        ++c.at;
        const char quote = c.done() ? 0 : c.text[c.at];
        if (quote != '"' && quote != '\'') return "an attribute value without quotes";
        const size_t end = c.text.find(quote, c.at + 1);
        if (end == std::string::npos || c.text.find('<', c.at + 1) < end) return "an attribute value that never ends";
        c.at = end + 1;
    }
}

// Declarations and comments before, between and after elements.
std::optional<std::string> skip_markup(XmlCursor& c) {
    for (;;) {
        c.skip_space();
        if (c.starts("<?")) {
            if (!c.tag_on_one_line() || !c.skip_past("?>")) return "a declaration that does not end on its line";
        } else if (c.starts("<!--")) {
            if (!c.skip_past("-->")) return "a comment that never ends";
        } else {
            return std::nullopt;
        }
    }
}

std::optional<std::string> read_xml(XmlCursor& c) {
    if (auto why = skip_markup(c)) return why;
    std::vector<std::string> open;
    do {
        if (c.done() && !open.empty()) return "<" + open.back() + "> is never closed";
        if (c.done() || c.text[c.at] != '<') return open.empty() ? "no root element" : "text outside the elements";
        if (!c.tag_on_one_line()) return "a tag that does not end on its line";
        ++c.at;
        if (!c.done() && c.text[c.at] == '/') {
            ++c.at;
            const std::string name = c.name();
            c.skip_space();
            if (open.empty() || name != open.back()) return "a closing tag that matches no open element";
            if (c.done() || c.text[c.at] != '>') return "a closing tag without '>'";
            ++c.at;
            open.pop_back();
        } else {
            const std::string name = c.name();
            if (name.empty()) return "a tag that is not <name>";
            if (open.empty() && name != "opencv_storage") return "a root element other than <opencv_storage>";
            bool closed = false;
            if (auto why = read_attributes(c, closed)) return why;
            if (!closed) open.push_back(name);
        }
        if (open.empty()) break;
        for (;;) { // the element's text and comments, up to its next tag
            while (!c.done() && c.text[c.at] != '<') ++c.at;
            if (!c.starts("<!--")) break;
            if (!c.skip_past("-->")) return "a comment that never ends";
        }
        if (c.starts("<?")) return "a declaration inside an element";
    } while (!open.empty());
    if (auto why = skip_markup(c)) return why;
    if (!c.done()) return "text after the root element";
    return std::nullopt;
}

} // namespace

std::optional<ScreenFinding> screen_filestorage_yaml(std::istream& in) {
    Layout layout;
    std::string line;
    int n = 1;
    std::getline(in, line);
    for (; std::getline(in, line);) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (auto why = read_line(line, layout)) return ScreenFinding{n, *why};
    }
    if (layout.flow_depth > 0) return ScreenFinding{n, "a '[' or '{' that is never closed"};
    return std::nullopt;
}

} // namespace tracker

namespace tracker {

std::optional<ScreenFinding> screen_filestorage_xml(std::istream& in) {
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    XmlCursor c{text};
    if (auto why = read_xml(c)) return ScreenFinding{c.line(), *why};
    return std::nullopt;
}

} // namespace tracker
