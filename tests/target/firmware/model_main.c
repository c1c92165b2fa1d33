/* Firmware for one model: the blob in flash (graphrt bin2c), TFLM's golden cases, pools in
 * .bss. Exit code 0 when every case is bit-exact, 1 otherwise. */
#include <stddef.h>

#include "golden_runner.h"
#include "stack_report.h"
#include "stack_usage.h"

extern const unsigned char fw_model_blob[];
extern const size_t fw_model_blob_size;

int main(void) {
  grt_cortex_m_stack_paint();
  unsigned failures = 0;
#if defined(FW_CHECK_REQUIREMENTS)
  failures += fw_check_requirements(&fw_golden, fw_model_blob, fw_model_blob_size);
#endif
  failures += fw_run_golden_cases(&fw_golden, fw_model_blob, fw_model_blob_size);
  fw_report_stack();
  return failures == 0 ? 0 : 1;
}
