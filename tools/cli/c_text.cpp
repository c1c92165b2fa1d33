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

std::string reserved_identifier_reason(const std::string& name) {
  // C23's keywords (C89 to C23 together: a name that is a keyword in any of them would
  // break someone's build), and what stddef.h, which the generated file includes, defines.
  static constexpr const char* kTaken[] = {
      "alignas", "alignof", "auto", "bool", "break", "case", "char", "const", "constexpr", "continue", "default", "do",
      "double", "else", "enum", "extern", "false", "float", "for", "goto", "if", "inline", "int", "long", "nullptr",
      "register", "restrict", "return", "short", "signed", "sizeof", "static", "static_assert", "struct", "switch",
      "thread_local", "true", "typedef", "typeof", "typeof_unqual", "union", "unsigned", "void", "volatile", "while",
      "asm", "fortran",  // common extensions
      "NULL", "offsetof", "size_t", "ptrdiff_t", "wchar_t", "max_align_t", "nullptr_t", "unreachable"};
  for (const char* taken : kTaken) {
    if (name == taken) return "is a C keyword or a name stddef.h defines";
  }
  // C reserves every identifier that starts with '_' and a capital letter or with "__"
  // (_Bool, _Alignas, __attribute__ ...) and, at file scope, every one starting with '_'.
  if (!name.empty() && name[0] == '_') return "starts with '_': such names are reserved for the C implementation at file scope";
  if (name.find("__") != std::string::npos) return "contains '__': such names are reserved for the C implementation";
  return {};
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
  if (const std::string reason = reserved_identifier_reason(*symbol); !reason.empty()) {
    return usage_error(command, "--symbol: '" + *symbol + "' " + reason);
  }
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
