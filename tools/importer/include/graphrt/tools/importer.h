// TensorFlow Lite flatbuffers in, a graphrt ModelDef out (then planned and serialized).
#ifndef GRAPHRT_TOOLS_IMPORTER_H_
#define GRAPHRT_TOOLS_IMPORTER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "graphrt/tools/model_def.h"

namespace grt::tools {

struct ConverterTable;

struct ImportResult {
  bool ok = false;
  std::string error;  // one line: what and where
  // Operators with no converter, by name ("SVDF", "CUSTOM:SignalWindow"), and how often.
  std::map<std::string, int> unsupported;
};

// Converts the first subgraph. Does not plan memory: call the planner on the result.
ImportResult import_tflite(const uint8_t* data, size_t size, ModelDef* out);
// The same with a chosen set of converters (tests; tools that add their own operators).
ImportResult import_tflite(const uint8_t* data, size_t size, ModelDef* out, const ConverterTable& converters);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_IMPORTER_H_
