// The `graphrt` program as a function, so that main() stays a one-liner.
#ifndef GRAPHRT_TOOLS_CLI_CLI_H_
#define GRAPHRT_TOOLS_CLI_CLI_H_

#include <string>
#include <vector>

namespace grt::cli {

// args: everything after the program name. Returns the exit code. Never throws: an
// exception (std::bad_alloc included) ends as one line on stderr and exit status 1.
int graphrt_main(const std::vector<std::string>& args);

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_CLI_H_
