// Generated operators from a host shared library (`graphrt run --kernels libops.so`): the
// library resolves TVMBackendAllocWorkspace and TVMAPISetLastError from the program that
// loads it, so that program must export them (CMake: ENABLE_EXPORTS).
#ifndef GRAPHRT_TOOLS_TVM_KERNEL_LIBRARY_H_
#define GRAPHRT_TOOLS_TVM_KERNEL_LIBRARY_H_

#include <string>

#include "graphrt/tools/tvm/tvm_import.h"

namespace grt::tools::tvm {

class KernelLibrary {
 public:
  KernelLibrary() = default;
  ~KernelLibrary();
  KernelLibrary(const KernelLibrary&) = delete;
  KernelLibrary& operator=(const KernelLibrary&) = delete;

  // False with dlopen's reason.
  bool open(const std::string& path, std::string* error);
  // The exported function `name`, or null. Valid while this object lives.
  TVMBackendPackedCFunc find(const std::string& name) const;
  KernelLookup lookup() const {
    return [this](const std::string& name) { return find(name); };
  }

 private:
  void* handle_ = nullptr;
};

}  // namespace grt::tools::tvm

#endif  // GRAPHRT_TOOLS_TVM_KERNEL_LIBRARY_H_
