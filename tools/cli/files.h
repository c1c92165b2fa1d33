// Reading and writing whole files, with errors that name the file and the reason.
#ifndef GRAPHRT_TOOLS_CLI_FILES_H_
#define GRAPHRT_TOOLS_CLI_FILES_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "graphrt/tools/aligned_bytes.h"

namespace grt::cli {

// The whole file in 16-byte aligned memory (as blobs must be loaded), if it holds at most
// max_bytes: a device, a pipe or a huge file stops being read one chunk past the limit.
// On failure returns false with "PATH: cannot open (reason)" or "PATH: more than
// max_bytes bytes, the input limit (--max-input-bytes)" in *error.
bool read_file(const std::string& path, uint64_t max_bytes, tools::AlignedBytes* out, std::string* error);

// Writes through a temporary file in the same folder and renames it over `path`, so that
// readers never see half a file and a failed write leaves the old file alone.
bool write_file(const std::string& path, const void* data, size_t size, std::string* error);

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_FILES_H_
