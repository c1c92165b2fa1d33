// The C kernel table of a model that calls generated operators (`graphrt kernels`): the
// built-in kernels it uses and, for each generated function, an entry with an argument
// check. Generated code checks nothing, so the check holds what the function was compiled
// for (argument count, each tensor's dtype and shape, from the model this table is made
// from) and init refuses any blob whose nodes call it otherwise.
#ifndef GRAPHRT_TOOLS_TVM_KERNEL_TABLE_C_H_
#define GRAPHRT_TOOLS_TVM_KERNEL_TABLE_C_H_

#include <string>
#include <vector>

#include "graphrt/graphrt.h"
#include "graphrt/tools/model_def.h"

namespace grt::tools::tvm {

// `builtin`: the built-in entries the model uses; every other kernel the model's nodes call
// is taken to be a generated function. False with a message when two nodes call one
// function with different arguments.
bool kernel_table_c(const ModelDef& model, const std::vector<const grt_kernel_entry*>& builtin, const std::string& symbol,
                    const std::string& source_name, std::string* text, std::string* error);

}  // namespace grt::tools::tvm

#endif  // GRAPHRT_TOOLS_TVM_KERNEL_TABLE_C_H_
