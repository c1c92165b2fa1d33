// GATHER_ND, for any element size, as TFLM's reference.
//
// gather_nd takes:
//   0 in params (rank >= 1), 1 in indices (int32, rank >= 1; its last dimension nd is at
//   most params' rank), 2 out Y (params' dtype, shape indices.shape[:-1] + params.shape[nd:])
// Slice s of Y is params[indices[s, 0], ..., indices[s, nd - 1], ...]. Like TFLM, the run
// fails when a slice's flat position falls outside params (indices may be computed at run
// time).
#include <string.h>

#include "../elementwise/tensor_layout.h"
#include "../kernel_args.h"

using grt::kernels::ArgCheck;
using grt::kernels::data_of;
using grt::kernels::element_count;
using grt::kernels::tensor_at;

GRT_KERNEL_FUNCTION(gather_nd) {
  (void)type_codes, (void)num_args, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels::elementwise;
  const DLTensor* params = tensor_at(args, 0);
  const DLTensor* indices = tensor_at(args, 1);
  DLTensor* out = tensor_at(args, 2);
  const int nd = static_cast<int>(indices->shape[indices->ndim - 1]);
  int64_t strides[kMaxRank] = {};
  row_major_strides(params, strides);
  int64_t slices = 1;
  for (int d = 0; d + 1 < indices->ndim; ++d) slices *= indices->shape[d];
  const int64_t slice = nd == 0 ? element_count(params) : strides[nd - 1];
  const int64_t flat = element_count(params);
  const int64_t element = element_bytes(params);
  const int32_t* index = data_of<const int32_t>(indices);
  const uint8_t* source = data_of<const uint8_t>(params);
  uint8_t* y = data_of<uint8_t>(out);
  for (int64_t s = 0; s < slices; ++s) {
    int64_t from = 0;
    for (int j = 0; j < nd; ++j) from += static_cast<int64_t>(index[s * nd + j]) * strides[j];
    if (from < 0 || from + slice > flat) {
      TVMAPISetLastError("gather_nd: an index is out of bounds");
      return -1;
    }
    memcpy(y + s * slice * element, source + from * element, static_cast<size_t>(slice * element));
  }
  return 0;
}

GRT_CHECK_FUNCTION(gather_nd) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  using namespace grt::kernels;
  using namespace grt::kernels::elementwise;
  ArgCheck check("gather_nd", args, type_codes, num_args);
  check.count(3).any_tensor(0).tensor(1, ElementType::kInt32).any_tensor(2);
  if (!check.ok()) return check.result();
  const DLTensor* params = tensor_at(args, 0);
  const DLTensor* indices = tensor_at(args, 1);
  const DLTensor* out = tensor_at(args, 2);
  check.expect(params->ndim >= 1 && params->ndim <= kMaxRank, "params rank is not 1 to 8")
      .expect(indices->ndim >= 1, "indices are not at least a vector")
      .expect(same_dtype(params, out), "params and output dtypes differ");
  if (!check.ok()) return check.result();
  const int64_t nd = indices->shape[indices->ndim - 1];
  check.expect(nd <= params->ndim, "the index depth exceeds the params' rank");
  if (!check.ok()) return check.result();
  bool shape_ok = out->ndim == indices->ndim - 1 + params->ndim - static_cast<int>(nd);
  for (int d = 0; shape_ok && d + 1 < indices->ndim; ++d) shape_ok = out->shape[d] == indices->shape[d];
  for (int d = static_cast<int>(nd); shape_ok && d < params->ndim; ++d) {
    shape_ok = out->shape[indices->ndim - 1 + d - nd] == params->shape[d];
  }
  check.expect(shape_ok, "output shape is not the gathered shape");
  return check.result();
}
