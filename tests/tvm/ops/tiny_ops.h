/* The tiny model's operators (tiny_ops.c), for tests that link them instead of loading them. */
#ifndef GRAPHRT_TESTS_TVM_TINY_OPS_H_
#define GRAPHRT_TESTS_TVM_TINY_OPS_H_

#include "tvm/runtime/c_backend_api.h"

#ifdef __cplusplus
extern "C" {
#endif

int32_t tvmgen_default_fused_add_nn_relu(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value,
                                         int32_t* out_ret_tcode, void* resource_handle);
int32_t tvmgen_default_fused_nn_dense_add(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value,
                                          int32_t* out_ret_tcode, void* resource_handle);
int32_t tvmgen_default_fused_multiply(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value,
                                      int32_t* out_ret_tcode, void* resource_handle);

#ifdef __cplusplus
}
#endif

#endif /* GRAPHRT_TESTS_TVM_TINY_OPS_H_ */
