#include "report.h"

#include <cstdio>
#include <string>

#include "args.h"

namespace grt::cli {
namespace {

// Messages can carry file names and tensor names: keep the report on one line.
std::string one_line(std::string_view text) {
  std::string line(text);
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return line;
}

}  // namespace

int fail(std::string_view command, std::string_view message) {
  std::fprintf(stderr, "graphrt %.*s: %s\n", static_cast<int>(command.size()), command.data(), one_line(message).c_str());
  return kExitFailure;
}

int usage_error(std::string_view command, std::string_view message) {
  const int length = static_cast<int>(command.size());
  std::fprintf(stderr, "graphrt %.*s: %s (see 'graphrt %.*s --help')\n", length, command.data(), one_line(message).c_str(),
               length, command.data());
  return kExitUsage;
}

}  // namespace grt::cli
