// IF and WHILE as TFLM's if.cc and while.cc run them: values are copied into a subgraph's
// inputs, the subgraph runs (grt_subgraph_run, graphrt/subgraph.h), its outputs are copied
// out. IF: [then, else, cond (bool, one element), inputs..., outputs...]; the branch runs
// with the inputs and gives the outputs. WHILE: [cond, body, inputs..., outputs...]; the
// outputs carry the loop's values: they start as the inputs, and while the condition
// subgraph says true on them the body replaces them with its outputs. A loop whose
// condition never turns false runs until the run is cancelled (grt_cancel): that is TFLM's
// semantics, and grt_subgraph_run checks the cancel flag on every call. CALL_ONCE with an
// initialiser that computes, as TFLM's call_once.cc runs it: [initialiser, done (bool [1]),
// variables...]; while done is 0 the initialiser runs, its outputs are copied into the
// variables (State tensors) and done is set. done is State too, so grt_reset_state makes
// the next run initialise again.
#include <string.h>

#include "graphrt/subgraph.h"
#include "kernel_args.h"

namespace grt::kernels {
namespace {

// The most values one control node passes in or out: their pointers are kept on the stack,
// since the arguments' storage is reused by the subgraph's nodes (lean arguments).
constexpr uint32_t kMaxValues = 16;

size_t byte_size(const DLTensor* t) { return static_cast<size_t>(element_count(t)) * ((t->dtype.bits + 7u) / 8u); }

bool same_type(const DLTensor* a, const DLTensor* b) {
  if (a->dtype.code != b->dtype.code || a->dtype.bits != b->dtype.bits || a->dtype.lanes != b->dtype.lanes || a->ndim != b->ndim) {
    return false;
  }
  for (int i = 0; i < a->ndim; ++i) {
    if (a->shape[i] != b->shape[i]) return false;
  }
  return true;
}

bool is_subgraph(int* codes, int i) { return codes[i] == GRT_SUBGRAPH_ARG; }

// Arguments [first, first + count) are tensors matching the subgraph's inputs or outputs one
// for one; outputs (`written`) are not constants (which have data before memory is bound).
bool matches(ArgCheck& check, TVMValue* args, int first, uint32_t count, int64_t subgraph, int side,
             bool written, const char* what) {
  for (uint32_t i = 0; i < count && check.ok(); ++i) {
    const int a = first + static_cast<int>(i);
    check.any_tensor(a);
    if (!check.ok()) return false;
    DLTensor d;
    check.expect(grt_subgraph_describe(subgraph, side, i, &d) == 0 && same_type(&d, tensor_at(args, a)), what);
    if (written) check.expect(tensor_at(args, a)->data == nullptr, "an output is a constant");
  }
  return check.ok();
}

// Copies `count` values into the subgraph's inputs or out of its outputs.
void copy_in(int64_t subgraph, void* const* from, const size_t* bytes, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    DLTensor d;
    grt_subgraph_describe(subgraph, 0, i, &d);
    if (d.data != from[i]) memcpy(d.data, from[i], bytes[i]);
  }
}

void copy_out(int64_t subgraph, void* const* to, const size_t* bytes, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    DLTensor d;
    grt_subgraph_describe(subgraph, 1, i, &d);
    if (d.data != to[i]) memcpy(to[i], d.data, bytes[i]);
  }
}

// Where arguments [first, first + count) keep their bytes, and how many.
void note_values(TVMValue* args, int first, uint32_t count, void** data, size_t* bytes) {
  for (uint32_t i = 0; i < count; ++i) {
    const DLTensor* t = tensor_at(args, first + static_cast<int>(i));
    data[i] = data_of<uint8_t>(t);
    bytes[i] = byte_size(t);
  }
}

bool flag_of(int64_t subgraph) {
  DLTensor d;
  grt_subgraph_describe(subgraph, 1, 0, &d);
  return *data_of<uint8_t>(&d) != 0;
}

}  // namespace
}  // namespace grt::kernels

using namespace grt::kernels;

GRT_CHECK_FUNCTION(if_else) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  if (grt_subgraph_supported() != 0) return -1;  // its message says why
  ArgCheck check("if_else", args, type_codes, num_args);
  check.count_between(3, 255).expect(num_args >= 2 && is_subgraph(type_codes, 0) && is_subgraph(type_codes, 1), "arguments 0 and 1 must be subgraphs");
  check.tensor(2, ElementType::kBool);
  if (!check.ok()) return check.result();
  check.expect(element_count(tensor_at(args, 2)) == 1, "the condition must have one element");
  const int64_t branches[2] = {args[0].v_int64, args[1].v_int64};
  const uint32_t n = grt_subgraph_io_count(branches[0], 0);
  const uint32_t m = grt_subgraph_io_count(branches[0], 1);
  check.expect(n <= kMaxValues && m <= kMaxValues, "more than 16 inputs or outputs");
  check.expect(static_cast<uint32_t>(num_args) == 3 + n + m, "the arguments do not match the then-branch's inputs and outputs");
  for (const int64_t branch : branches) {
    check.expect(grt_subgraph_io_count(branch, 0) == n && grt_subgraph_io_count(branch, 1) == m, "the branches differ in arity");
    matches(check, args, 3, n, branch, 0, false, "an input differs in dtype or shape from a branch's");
    matches(check, args, 3 + static_cast<int>(n), m, branch, 1, true, "an output differs in dtype or shape from a branch's");
  }
  return check.result();
}

GRT_KERNEL_FUNCTION(if_else) {
  (void)type_codes, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const bool take_then = *data_of<uint8_t>(tensor_at(args, 2)) != 0;
  const int64_t branch = take_then ? args[0].v_int64 : args[1].v_int64;
  const uint32_t n = grt_subgraph_io_count(branch, 0);
  const uint32_t m = static_cast<uint32_t>(num_args) - 3 - n;
  void* in[kMaxValues];
  void* out[kMaxValues];
  size_t in_bytes[kMaxValues];
  size_t out_bytes[kMaxValues];
  note_values(args, 3, n, in, in_bytes);
  note_values(args, 3 + static_cast<int>(n), m, out, out_bytes);
  copy_in(branch, in, in_bytes, n);
  if (grt_subgraph_run(branch) != 0) return -1;
  copy_out(branch, out, out_bytes, m);
  return 0;
}

GRT_CHECK_FUNCTION(while_loop) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  if (grt_subgraph_supported() != 0) return -1;  // its message says why
  ArgCheck check("while_loop", args, type_codes, num_args);
  check.count_between(2, 255).expect(num_args >= 2 && is_subgraph(type_codes, 0) && is_subgraph(type_codes, 1), "arguments 0 and 1 must be subgraphs");
  if (!check.ok()) return check.result();
  const int64_t cond = args[0].v_int64;
  const int64_t body = args[1].v_int64;
  const uint32_t n = grt_subgraph_io_count(body, 0);
  check.expect(n <= kMaxValues, "more than 16 loop values");
  check.expect(static_cast<uint32_t>(num_args) == 2 + 2 * n, "the arguments are not the body's inputs and as many outputs");
  check.expect(grt_subgraph_io_count(body, 1) == n, "the body's outputs do not match its inputs");
  check.expect(grt_subgraph_io_count(cond, 0) == n && grt_subgraph_io_count(cond, 1) == 1, "the condition must take the loop values and give one output");
  if (!check.ok()) return check.result();
  DLTensor flag;
  grt_subgraph_describe(cond, 1, 0, &flag);
  check.expect(flag.dtype.code == kDLUInt && flag.dtype.bits == 1 && element_count(&flag) == 1, "the condition's output must be one bool");
  matches(check, args, 2, n, cond, 0, false, "an input differs in dtype or shape from the condition's");
  matches(check, args, 2, n, body, 0, false, "an input differs in dtype or shape from the body's");
  matches(check, args, 2, n, body, 1, false, "an input differs in dtype or shape from the body's output");
  matches(check, args, 2 + static_cast<int>(n), n, body, 1, true, "an output differs in dtype or shape from the body's");
  return check.result();
}

GRT_KERNEL_FUNCTION(while_loop) {
  (void)type_codes, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  const int64_t cond = args[0].v_int64;
  const int64_t body = args[1].v_int64;
  const uint32_t n = static_cast<uint32_t>(num_args - 2) / 2;
  void* in[kMaxValues];
  void* values[kMaxValues];
  size_t bytes[kMaxValues];
  note_values(args, 2, n, in, bytes);
  note_values(args, 2 + static_cast<int>(n), n, values, bytes);
  // The outputs hold the loop's values from the start: what the loop gives when the
  // condition is false at once.
  for (uint32_t i = 0; i < n; ++i) {
    if (values[i] != in[i]) memcpy(values[i], in[i], bytes[i]);
  }
  for (;;) {
    copy_in(cond, values, bytes, n);
    if (grt_subgraph_run(cond) != 0) return -1;
    if (!flag_of(cond)) return 0;
    copy_in(body, values, bytes, n);
    if (grt_subgraph_run(body) != 0) return -1;
    copy_out(body, values, bytes, n);
  }
}

GRT_CHECK_FUNCTION(call_once) {
  (void)ret_value, (void)ret_type_code, (void)resource_handle;
  if (grt_subgraph_supported() != 0) return -1;  // its message says why
  ArgCheck check("call_once", args, type_codes, num_args);
  check.count_between(2, 2 + kMaxValues).expect(num_args >= 1 && is_subgraph(type_codes, 0), "argument 0 must be a subgraph");
  check.tensor(1, ElementType::kBool);
  if (!check.ok()) return check.result();
  check.expect(element_count(tensor_at(args, 1)) == 1, "the done flag must have one element");
  const int64_t init = args[0].v_int64;
  const uint32_t n = grt_subgraph_io_count(init, 1);
  check.expect(grt_subgraph_io_count(init, 0) == 0, "the initialiser takes inputs");
  check.expect(static_cast<uint32_t>(num_args) == 2 + n, "the arguments are not one variable per initialiser output");
  // TFLM's ASSIGN_VARIABLE compares byte counts only: a variable's shape may differ.
  for (uint32_t i = 0; i < n && check.ok(); ++i) {
    const int a = 2 + static_cast<int>(i);
    check.any_tensor(a);
    if (!check.ok()) break;
    DLTensor d;
    const DLTensor* variable = tensor_at(args, a);
    check.expect(grt_subgraph_describe(init, 1, i, &d) == 0 && d.dtype.code == variable->dtype.code && d.dtype.bits == variable->dtype.bits &&
                     byte_size(&d) == byte_size(variable),
                 "a variable differs in dtype or size from the initialiser's output")
        .expect(variable->data == nullptr, "a variable is a constant");
  }
  return check.result();
}

GRT_KERNEL_FUNCTION(call_once) {
  (void)type_codes, (void)ret_value, (void)ret_type_code, (void)resource_handle;
  uint8_t* done = data_of<uint8_t>(tensor_at(args, 1));
  if (*done != 0) return 0;
  const int64_t init = args[0].v_int64;
  const uint32_t n = static_cast<uint32_t>(num_args) - 2;
  void* variables[kMaxValues];
  size_t bytes[kMaxValues];
  note_values(args, 2, n, variables, bytes);
  if (grt_subgraph_run(init) != 0) return -1;
  copy_out(init, variables, bytes, n);
  *done = 1;
  return 0;
}
