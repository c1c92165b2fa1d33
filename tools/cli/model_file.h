// A .grt file read into aligned memory and checked the way the runtime checks it.
#ifndef GRAPHRT_TOOLS_CLI_MODEL_FILE_H_
#define GRAPHRT_TOOLS_CLI_MODEL_FILE_H_

#include <string>

#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"
#include "resource_limits.h"

namespace grt::cli {

struct ModelFile {
  tools::AlignedBytes blob;
  tools::ModelDef model;  // the blob parsed back, for names, shapes and arguments
};

// Reads at most limits.max_input_bytes, then runs the loader's own checks
// (grt_model_requirements) before anything else looks at the bytes: every command refuses
// what a device would refuse, with the device's message, and nothing downstream (planner,
// tables, pools) ever sees an unchecked index or size. On failure *error is "PATH:
// reason", e.g. "m.grt: not a graphrt model: file identifier is 'TFL3', expected 'GRT1'".
bool load_model_file(const std::string& path, const Limits& limits, ModelFile* out, std::string* error);

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_MODEL_FILE_H_
