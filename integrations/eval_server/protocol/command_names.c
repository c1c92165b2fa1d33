#include "protocol.h"

const char* grt_eval_command_name(uint8_t command) {
  switch (command) {
    case GRT_EVAL_HELLO: return "HELLO";
    case GRT_EVAL_KERNELS: return "KERNELS";
    case GRT_EVAL_LOAD_BEGIN: return "LOAD_BEGIN";
    case GRT_EVAL_LOAD_CHUNK: return "LOAD_CHUNK";
    case GRT_EVAL_LOAD_END: return "LOAD_END";
    case GRT_EVAL_SET_INPUT: return "SET_INPUT";
    case GRT_EVAL_RUN: return "RUN";
    case GRT_EVAL_READ_OUTPUT: return "READ_OUTPUT";
    case GRT_EVAL_REPORT: return "REPORT";
    case GRT_EVAL_NODE_CYCLES: return "NODE_CYCLES";
    case GRT_EVAL_RESET: return "RESET";
    default: return "?";
  }
}
