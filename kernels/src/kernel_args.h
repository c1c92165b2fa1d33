// Reading and checking packed-function arguments inside kernels. Checks run once per node
// at init (grt_check_<name>); kernels then read their arguments without checking again.
#ifndef GRAPHRT_KERNELS_KERNEL_ARGS_H_
#define GRAPHRT_KERNELS_KERNEL_ARGS_H_

#include <stddef.h>
#include <stdint.h>

#include "graphrt/graphrt.h"
#include "graphrt/packed_func.h"

namespace grt::kernels {

enum class ElementType { kInt8, kUInt8, kInt16, kInt32, kInt64, kFloat32, kBool };

inline bool is_type(const DLTensor* t, ElementType e) {
  const DLDataType d = t->dtype;
  if (d.lanes != 1) return false;
  switch (e) {
    case ElementType::kInt8: return d.code == kDLInt && d.bits == 8;
    case ElementType::kUInt8: return d.code == kDLUInt && d.bits == 8;
    case ElementType::kInt16: return d.code == kDLInt && d.bits == 16;
    case ElementType::kInt32: return d.code == kDLInt && d.bits == 32;
    case ElementType::kInt64: return d.code == kDLInt && d.bits == 64;
    case ElementType::kFloat32: return d.code == kDLFloat && d.bits == 32;
    case ElementType::kBool: return d.code == kDLUInt && d.bits == 1;
  }
  return false;
}

inline int64_t element_count(const DLTensor* t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndim; ++i) n *= t->shape[i];
  return n;
}

// Unchecked accessors, for kernels whose check already ran.
inline DLTensor* tensor_at(TVMValue* args, int i) { return static_cast<DLTensor*>(args[i].v_handle); }
inline int64_t int_at(TVMValue* args, int i) { return args[i].v_int64; }
inline double real_at(TVMValue* args, int i) { return args[i].v_float64; }
template <typename T>
inline T* data_of(const DLTensor* t) {
  return reinterpret_cast<T*>(static_cast<uint8_t*>(t->data) + t->byte_offset);
}
// Optional tensor arguments (kTVMNullptr) come back as NULL.
inline const DLTensor* optional_tensor_at(TVMValue* args, int i) {
  return static_cast<const DLTensor*>(args[i].v_handle);
}

// A check that reports the first failure through TVMAPISetLastError.
class ArgCheck {
 public:
  // The kernel's name is for the reader: the executor's message already names node and kernel.
  ArgCheck(const char* /*kernel*/, TVMValue* args, int* codes, int count) : args_(args), codes_(codes), count_(count) {}

  bool ok() const { return ok_; }
  // Returns the kernel's check result: 0, or -1 after reporting.
  int result() const { return ok_ ? 0 : -1; }

  ArgCheck& count(int expected) {
    if (ok_ && count_ != expected) fail("wrong number of arguments");
    return *this;
  }
  ArgCheck& count_between(int low, int high) {
    if (ok_ && (count_ < low || count_ > high)) fail("wrong number of arguments");
    return *this;
  }
  // A tensor of any dtype (type-generic kernels check the dtype themselves).
  ArgCheck& any_tensor(int i) {
    if (!ok_) return *this;
    if (i >= count_ || codes_[i] != kTVMDLTensorHandle || args_[i].v_handle == nullptr) return fail_at(i, "is not a tensor");
    return *this;
  }
  // A tensor of this type and rank (rank < 0: any).
  ArgCheck& tensor(int i, ElementType type, int rank = -1) {
    any_tensor(i);
    if (!ok_) return *this;
    const DLTensor* t = tensor_at(args_, i);
    if (!is_type(t, type)) return fail_at(i, "has the wrong dtype");
    if (rank >= 0 && t->ndim != rank) return fail_at(i, "has the wrong rank");
    return *this;
  }
  // A tensor, or an absent optional (null).
  ArgCheck& optional_tensor(int i, ElementType type, int rank = -1) {
    if (!ok_) return *this;
    if (i < count_ && codes_[i] == kTVMNullptr) return *this;
    return tensor(i, type, rank);
  }
  ArgCheck& integer(int i, int64_t low = INT64_MIN, int64_t high = INT64_MAX) {
    if (!ok_) return *this;
    if (i >= count_ || codes_[i] != kTVMArgInt) return fail_at(i, "is not an integer");
    if (args_[i].v_int64 < low || args_[i].v_int64 > high) return fail_at(i, "is out of range");
    return *this;
  }
  ArgCheck& real(int i) {
    if (!ok_) return *this;
    if (i >= count_ || codes_[i] != kTVMArgFloat) return fail_at(i, "is not a float");
    return *this;
  }
  // Any other condition, with what it means.
  ArgCheck& expect(bool condition, const char* what) {
    if (ok_ && !condition) fail(what);
    return *this;
  }

 private:
  ArgCheck& fail_at(int i, const char* what) {
    char message[80];
    size_t n = 0;
    auto put = [&](const char* s) {
      while (*s != '\0' && n + 1 < sizeof(message)) message[n++] = *s++;
    };
    put("argument ");
    char digit[4] = {0, 0, 0, 0};
    int v = i < 0 ? 0 : i;
    if (v >= 100) {
      digit[0] = static_cast<char>('0' + v / 100);
      digit[1] = static_cast<char>('0' + v / 10 % 10);
      digit[2] = static_cast<char>('0' + v % 10);
    } else if (v >= 10) {
      digit[0] = static_cast<char>('0' + v / 10);
      digit[1] = static_cast<char>('0' + v % 10);
    } else {
      digit[0] = static_cast<char>('0' + v);
    }
    put(digit);
    put(" ");
    put(what);
    message[n] = '\0';
    return fail(message);
  }
  ArgCheck& fail(const char* what) {
    ok_ = false;
    TVMAPISetLastError(what);
    return *this;
  }
  TVMValue* args_;
  int* codes_;
  int count_;
  bool ok_ = true;
};

}  // namespace grt::kernels

// Declares a kernel and its check with the packed-function signature.
#define GRT_KERNEL_FUNCTION(name)                                                                   \
  extern "C" int grt_kernel_##name(TVMValue* args, int* type_codes, int num_args, TVMValue* ret_value, \
                                   int* ret_type_code, void* resource_handle)
#define GRT_CHECK_FUNCTION(name)                                                                   \
  extern "C" int grt_check_##name(TVMValue* args, int* type_codes, int num_args, TVMValue* ret_value, \
                                  int* ret_type_code, void* resource_handle)

#endif  // GRAPHRT_KERNELS_KERNEL_ARGS_H_
