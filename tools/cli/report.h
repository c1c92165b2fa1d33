// How every command speaks to its user: errors are one line on stderr that says which
// command, what, and where ("graphrt run: model.grt: not a graphrt model ...").
#ifndef GRAPHRT_TOOLS_CLI_REPORT_H_
#define GRAPHRT_TOOLS_CLI_REPORT_H_

#include <string_view>

namespace grt::cli {

// Prints "graphrt COMMAND: MESSAGE" on stderr and returns kExitFailure.
int fail(std::string_view command, std::string_view message);

// Prints "graphrt COMMAND: MESSAGE (see 'graphrt COMMAND --help')" and returns kExitUsage.
int usage_error(std::string_view command, std::string_view message);

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_REPORT_H_
