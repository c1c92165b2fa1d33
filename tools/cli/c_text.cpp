#include "c_text.h"

#include <cstdio>

#include "args.h"
#include "files.h"
#include "report.h"

namespace grt::cli {

bool is_c_identifier(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string comment_safe(std::string text) {
  for (char& c : text) {
    if (c < ' ' || c == '\x7f') c = '?';
  }
  for (size_t at = text.find("*/"); at != std::string::npos; at = text.find("*/", at)) text[at] = '?';
  return text;
}

std::optional<int> refuse_symbol(std::string_view command, const std::optional<std::string>& symbol) {
  if (!symbol) return usage_error(command, "--symbol NAME is required");
  if (!is_c_identifier(*symbol)) return usage_error(command, "--symbol: '" + *symbol + "' is not a C identifier");
  return std::nullopt;
}

int write_c_text(std::string_view command, const std::string& text, const std::optional<std::string>& output) {
  if (!output) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0 ? kExitOk : fail(command, "cannot write standard output");
  }
  std::string error;
  if (!write_file(*output, text.data(), text.size(), &error)) return fail(command, error);
  return kExitOk;
}

}  // namespace grt::cli
