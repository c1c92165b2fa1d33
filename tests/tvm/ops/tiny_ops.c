/* The operators of the tests' tiny TVM model, written by hand the way TVM's C backend
 * generates them: packed functions with void* arguments and int32_t type ids, DLTensor
 * handles read without checks, scratch memory from TVMBackendAllocWorkspace freed in
 * reverse order, failures as a non-zero return. */
#define TVM_EXPORTS
#include "tvm/runtime/c_backend_api.h"
#include "tvm/runtime/c_runtime_api.h"

/* y[1,8] = max(x[1,8] + p0[8], 0) */
TVM_DLL int32_t tvmgen_default_fused_add_nn_relu(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value,
                                                  int32_t* out_ret_tcode, void* resource_handle) {
  float* x = (float*)(((DLTensor*)(((TVMValue*)args)[0].v_handle))[0].data);
  float* p0 = (float*)(((DLTensor*)(((TVMValue*)args)[1].v_handle))[0].data);
  float* y = (float*)(((DLTensor*)(((TVMValue*)args)[2].v_handle))[0].data);
  (void)arg_type_ids, (void)num_args, (void)out_ret_value, (void)out_ret_tcode, (void)resource_handle;
  for (int32_t i = 0; i < 8; ++i) {
    const float v = x[i] + p0[i];
    y[i] = v > 0.0f ? v : 0.0f;
  }
  return 0;
}

/* y[1,4] = x[1,8] . p1[4,8]^T + p2[4], through a packed (transposed) copy of the weights and
 * an accumulator row, both workspace: 128 + 16 bytes requested, two allocations. */
TVM_DLL int32_t tvmgen_default_fused_nn_dense_add(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value,
                                                   int32_t* out_ret_tcode, void* resource_handle) {
  DLTensor* x_tensor = (DLTensor*)(((TVMValue*)args)[0].v_handle);
  float* x = (float*)(x_tensor[0].data);
  float* w = (float*)(((DLTensor*)(((TVMValue*)args)[1].v_handle))[0].data);
  float* b = (float*)(((DLTensor*)(((TVMValue*)args)[2].v_handle))[0].data);
  float* y = (float*)(((DLTensor*)(((TVMValue*)args)[3].v_handle))[0].data);
  int32_t dev_id = x_tensor[0].device.device_id;
  (void)arg_type_ids, (void)num_args, (void)out_ret_value, (void)out_ret_tcode, (void)resource_handle;
  float* packed = (float*)TVMBackendAllocWorkspace(1, dev_id, (uint64_t)128, 2, 32);
  if (packed == NULL) return -1;
  float* acc = (float*)TVMBackendAllocWorkspace(1, dev_id, (uint64_t)16, 2, 32);
  if (acc == NULL) return -1;
  for (int32_t k = 0; k < 8; ++k) {
    for (int32_t o = 0; o < 4; ++o) packed[k * 4 + o] = w[o * 8 + k];
  }
  for (int32_t o = 0; o < 4; ++o) acc[o] = b[o];
  for (int32_t k = 0; k < 8; ++k) {
    for (int32_t o = 0; o < 4; ++o) acc[o] += x[k] * packed[k * 4 + o];
  }
  for (int32_t o = 0; o < 4; ++o) y[o] = acc[o];
  if (TVMBackendFreeWorkspace(1, dev_id, acc) != 0) return -1;
  if (TVMBackendFreeWorkspace(1, dev_id, packed) != 0) return -1;
  return 0;
}

/* flatten_data: y[4] = x[4] * p3[4], every argument seen as one dimension. This one checks
 * the rank (generated code would not) so that a runtime ignoring flatten_data fails. */
TVM_DLL int32_t tvmgen_default_fused_multiply(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value,
                                               int32_t* out_ret_tcode, void* resource_handle) {
  (void)arg_type_ids, (void)out_ret_value, (void)out_ret_tcode, (void)resource_handle;
  for (int32_t i = 0; i < num_args; ++i) {
    const DLTensor* t = (const DLTensor*)(((TVMValue*)args)[i].v_handle);
    if (t->ndim != 1 || t->shape[0] != 4) {
      TVMAPISetLastError("tvmgen_default_fused_multiply: arguments are not flattened");
      return -1;
    }
  }
  float* x = (float*)(((DLTensor*)(((TVMValue*)args)[0].v_handle))[0].data);
  float* p3 = (float*)(((DLTensor*)(((TVMValue*)args)[1].v_handle))[0].data);
  float* y = (float*)(((DLTensor*)(((TVMValue*)args)[2].v_handle))[0].data);
  for (int32_t i = 0; i < 4; ++i) y[i] = x[i] * p3[i];
  return 0;
}
