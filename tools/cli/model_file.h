// A .grt file read into aligned memory and checked the way the runtime checks it.
#ifndef GRAPHRT_TOOLS_CLI_MODEL_FILE_H_
#define GRAPHRT_TOOLS_CLI_MODEL_FILE_H_

#include <string>

#include "graphrt/tools/aligned_bytes.h"
#include "graphrt/tools/model_def.h"

namespace grt::cli {

struct ModelFile {
  tools::AlignedBytes blob;
  tools::ModelDef model;  // the blob parsed back, for names, shapes and arguments
};

enum class ModelCheck {
  kFormat,   // FlatBuffers' verifier and the file identifier only (inspect shows what it can)
  kRuntime,  // everything grt_model_requirements checks: what run and bin2c need
};

// On failure *error is "PATH: reason", e.g. "m.grt: not a graphrt model: file identifier
// is 'TFL3', expected 'GRT1'".
bool load_model_file(const std::string& path, ModelCheck check, ModelFile* out, std::string* error);

}  // namespace grt::cli

#endif  // GRAPHRT_TOOLS_CLI_MODEL_FILE_H_
