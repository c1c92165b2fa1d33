// Every fail()/append() call in the runtime passes exactly one argument per directive of
// its format string. The formatter reads its arguments with va_arg, which cannot tell how
// many there are, so this is checked here, over the sources, for calls no test reaches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Call {
  std::string file;
  size_t line = 0;
  std::string format;
  int arguments_after_format = 0;
};

// The text of a C string literal starting at s[at] == '"'; *end is just past it.
std::string literal_at(const std::string& s, size_t at, size_t* end) {
  std::string text;
  size_t i = at + 1;
  for (; i < s.size() && s[i] != '"'; ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) ++i;
    text += s[i];
  }
  *end = i + 1;
  return text;
}

// The calls `name(` in `source` whose fourth argument (fail) or third (append) is a literal.
std::vector<Call> calls_in(const std::string& file, const std::string& source, const std::string& name, int format_index) {
  std::vector<Call> calls;
  for (size_t at = source.find(name + "("); at != std::string::npos; at = source.find(name + "(", at + 1)) {
    const char before = at == 0 ? ' ' : source[at - 1];
    if (std::isalnum(static_cast<unsigned char>(before)) || before == '_') continue;  // fail_v, my_fail
    Call call;
    call.file = file;
    call.line = static_cast<size_t>(std::count(source.begin(), source.begin() + static_cast<long>(at), '\n')) + 1;
    int depth = 0, argument = 0;
    bool format_seen = false;
    for (size_t i = at + name.size(); i < source.size(); ++i) {
      const char c = source[i];
      if (c == '"') {
        size_t end = 0;
        std::string text = literal_at(source, i, &end);
        if (depth == 1 && argument == format_index) {
          call.format += text;  // adjacent literals concatenate
          format_seen = true;
        }
        i = end - 1;
      } else if (c == '(' || c == '{' || c == '[') {
        ++depth;
      } else if (c == ')' || c == '}' || c == ']') {
        if (--depth == 0) break;
      } else if (c == ',' && depth == 1) {
        ++argument;
        if (argument > format_index) ++call.arguments_after_format;
      }
    }
    if (format_seen) calls.push_back(call);  // declarations and forwarding calls have no literal
  }
  return calls;
}

int directives(const std::string& format) {
  int count = 0;
  for (size_t i = 0; i + 1 < format.size(); ++i) {
    if (format[i] == '%' && std::string("udsqtnp").find(format[i + 1]) != std::string::npos) {
      ++count;
      ++i;
    }
  }
  return count;
}

TEST(MessageCalls, EveryCallPassesOneArgumentPerDirective) {
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(GRT_RUNTIME_SOURCE_DIR)) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string file = entry.path().filename().string();
    for (const auto& [name, format_index] : std::vector<std::pair<std::string, int>>{{"fail", 3}, {"append", 2}}) {
      for (const Call& call : calls_in(file, text.str(), name, format_index)) {
        EXPECT_EQ(directives(call.format), call.arguments_after_format)
            << call.file << ":" << call.line << ": \"" << call.format << "\"";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 80u) << "the scan found too few calls: has the call syntax changed?";
}

}  // namespace
