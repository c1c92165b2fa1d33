// What the command line is willing to spend on one input: bytes read from a file and host
// memory allocated to run a blob. Whatever a file declares, a command past either limit
// stops with one line that names the limit, the numbers and the option that raises it.
#ifndef GRAPHRT_TOOLS_CLI_RESOURCE_LIMITS_H_
#define GRAPHRT_TOOLS_CLI_RESOURCE_LIMITS_H_

#include <cstdint>
#include "args.h"

namespace grt::cli {

struct Limits {
  // Models, blobs, keys and inputs are read up to this many bytes (devices and pipes too).
  uint64_t max_input_bytes = uint64_t{256} << 20;
  // Bookkeeping, pools and allocator buffers allocated to load or run one blob.
  uint64_t max_memory_bytes = uint64_t{1} << 30;
};

// The options that set them, for the CommandSpecs of the commands that read files and of
// those that allocate a blob's memory.
OptionSpec max_input_option();
OptionSpec max_memory_option();

// Reads --max-input-bytes and --max-memory (when present) into *limits; false after a
// usage error has been printed.
bool read_limits(const CommandSpec& spec, const ParsedArgs& args, Limits* limits);

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_RESOURCE_LIMITS_H_
