/* An AoT model (`graphrt aot --symbol wand_aot --define-pools`) as a program: runs it once
 * on argv[1]'s bytes and writes its first output to argv[2], for tests that compare it with
 * the interpreter in another process (one image holds either runtime, not both). */
#include <stdio.h>

#include "wand_aot.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s INPUT.bin OUTPUT.bin\n", argv[0]);
    return 2;
  }
  FILE* in = fopen(argv[1], "rb");
  if (in == NULL) {
    fprintf(stderr, "cannot open %s\n", argv[1]);
    return 1;
  }
  const size_t read = fread(wand_aot_input(0)->data, 1, WAND_AOT_INPUT0_BYTES, in);
  const int extra = fgetc(in);
  fclose(in);
  if (read != WAND_AOT_INPUT0_BYTES || extra != EOF) {
    fprintf(stderr, "%s: not %u bytes\n", argv[1], (unsigned)WAND_AOT_INPUT0_BYTES);
    return 1;
  }
  const char* message = NULL;
  const int result = wand_aot_run(&message);
  if (result != 0) {
    fprintf(stderr, "node %d failed: %s\n", result - 1, message != NULL ? message : "(no message)");
    return 1;
  }
  FILE* out = fopen(argv[2], "wb");
  if (out == NULL || fwrite(wand_aot_output(0)->data, 1, WAND_AOT_OUTPUT0_BYTES, out) != WAND_AOT_OUTPUT0_BYTES) {
    fprintf(stderr, "cannot write %s\n", argv[2]);
    if (out != NULL) fclose(out);
    return 1;
  }
  return fclose(out) == 0 ? 0 : 1;
}
