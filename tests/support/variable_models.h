// TFLite models with resource variables started by CALL_ONCE, for the variables' tests and
// the fuzzers' seed corpus (an initialiser that computes is a path the importer's fuzzer
// would otherwise reach only by mutation).
#ifndef GRAPHRT_TESTS_SUPPORT_VARIABLE_MODELS_H_
#define GRAPHRT_TESTS_SUPPORT_VARIABLE_MODELS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tflite_op_model.h"

namespace grt::test {

// VAR_HANDLE's options: the variable's shared name and container.
BuiltinOptionsWriter var_handle_options(std::optional<std::string> shared_name, std::optional<std::string> container = std::nullopt);

// A RESOURCE tensor (a variable's handle) named `name`.
int32_t resource(TfliteModelSpec* m, const std::string& name);

// x float32 [4] -> y = v + x, v := y: the running sum of every input since the last reset.
TfliteModelSpec accumulator();

// The accumulator, started by a CALL_ONCE whose initialiser assigns `start` to the sum
// (constants only: the importer folds them into the variable's initial value).
TfliteModelSpec started_accumulator(std::vector<float> start = {10, 20, 30, 40});

// started_accumulator() with an ADD in the initialiser (its result unused): an initialiser
// that computes, which runs as the call_once node.
TfliteModelSpec computing_started_accumulator();

}  // namespace grt::test

#endif  // GRAPHRT_TESTS_SUPPORT_VARIABLE_MODELS_H_
