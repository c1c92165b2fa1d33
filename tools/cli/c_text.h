// What the commands that write C (bin2c, kernels) share: identifiers and comments that
// are safe to put in generated C.
#ifndef GRAPHRT_TOOLS_CLI_C_TEXT_H_
#define GRAPHRT_TOOLS_CLI_C_TEXT_H_

#include <optional>
#include <string>
#include <string_view>

namespace grt::cli {

// A C identifier: letters, digits and '_', not starting with a digit.
bool is_c_identifier(const std::string& name);

// Why a C identifier cannot name a file-scope object in generated C: a keyword (of any C
// standard), a name stddef.h defines, or a name C reserves ('_' first, "__" anywhere).
// Empty when it can.
std::string reserved_identifier_reason(const std::string& name);

// `text` with anything that could end a C comment or its line replaced by '?'.
std::string comment_safe(std::string text);

// The --symbol a C-writing command needs: an exit code (usage error) if it is missing, not
// a C identifier or a reserved one, else nullopt.
std::optional<int> refuse_symbol(std::string_view command, const std::optional<std::string>& symbol);

// Writes generated C to `output`, or to standard output without one; the exit code.
int write_c_text(std::string_view command, const std::string& text, const std::optional<std::string>& output);

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_C_TEXT_H_
