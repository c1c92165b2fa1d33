#include "graphrt/tools/tvm/kernel_library.h"

#include <dlfcn.h>

namespace grt::tools::tvm {

KernelLibrary::~KernelLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

bool KernelLibrary::open(const std::string& path, std::string* error) {
  // A path without a slash would make dlopen search the system's library folders.
  const std::string where = path.find('/') == std::string::npos ? "./" + path : path;
  handle_ = dlopen(where.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* reason = dlerror();
    *error = path + ": cannot load the operators: " + (reason != nullptr ? reason : "dlopen failed");
    return false;
  }
  return true;
}

TVMBackendPackedCFunc KernelLibrary::find(const std::string& name) const {
  if (handle_ == nullptr) return nullptr;
  // POSIX guarantees a data pointer from dlsym converts to a function pointer.
  return reinterpret_cast<TVMBackendPackedCFunc>(dlsym(handle_, name.c_str()));
}

}  // namespace grt::tools::tvm
