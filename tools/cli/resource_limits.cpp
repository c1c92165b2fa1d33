#include "resource_limits.h"

namespace grt::cli {

OptionSpec max_input_option() {
  return {"max-input-bytes", 0, "BYTES", false, "read no input file past BYTES (default 268435456, 256 MiB)"};
}

OptionSpec max_memory_option() {
  return {"max-memory", 0, "BYTES", false, "allocate at most BYTES to load and run the blob (default 1073741824, 1 GiB)"};
}

bool read_limits(const CommandSpec& spec, const ParsedArgs& args, Limits* limits) {
  return numeric_option(spec, args, "max-input-bytes", 1, UINT64_MAX, &limits->max_input_bytes) &&
         numeric_option(spec, args, "max-memory", 1, UINT64_MAX, &limits->max_memory_bytes);
}

}  // namespace grt::cli
