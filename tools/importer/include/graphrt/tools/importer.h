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

// Folds each int8 PAD of rows and columns whose one reader is a convolution (conv2d_s8,
// depthwise_conv2d_s8) and whose value is that convolution's input zero point into the
// convolution's top and left padding: the same output bytes without the padded copy
// (fold_pads.cpp says why it is exact). Returns how many were folded. import_tflite does it
// to every model without subgraphs.
uint32_t fold_pads_into_convolutions(ModelDef* model);

}  // namespace grt::tools

#endif  // GRAPHRT_TOOLS_IMPORTER_H_
