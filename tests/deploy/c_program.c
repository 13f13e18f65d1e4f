/* tests/deploy/c_program.c — a C program over the deploy runtime's public
 * header alone (accelc_runtime.h), as a user on a board would write one.
 *
 *   c_program BUNDLE DEVICE INPUT.f32 [in-place]
 *
 * Reads one inference's input as raw float32 (the bundle's first input),
 * runs it, and prints every output's name, shape and values ("%.9g", one per
 * line), then the step count. With "in-place", the input is read straight
 * into the session's buffer and the outputs printed where they lie (the
 * zero-copy binding) instead of copied in and out. On an error: the status and accelc_last_error()
 * on stderr, exit status 2.
 */
#include <stdio.h>
#include <stdlib.h>

#include "accelc_runtime.h"

static int failed(accelc_status s) {
  fprintf(stderr, "status %d: %s\n", (int)s, accelc_last_error());
  return 2;
}

int main(int argc, char** argv) {
  accelc_bundle* b = NULL;
  accelc_session* s = NULL;
  accelc_tensor_info in, out;
  accelc_status st = ACCELC_OK;
  float* x = NULL;
  float* y = NULL;
  void* bound = NULL;
  const void* view = NULL;
  size_t bytes = 0;
  FILE* f;
  int i, k, rc = 0, inPlace = argc == 5;
  if (argc != 4 && !(argc == 5 && argv[4][0] == 'i')) {
    fprintf(stderr, "usage: c_program BUNDLE DEVICE INPUT.f32 [in-place]\n");
    return 2;
  }
  /* One way out: every handle is released whatever failed. */
  if ((st = accelc_bundle_open(argv[1], &b)) != ACCELC_OK) goto done;
  if ((st = accelc_session_create(b, argv[2], NULL, &s)) != ACCELC_OK) goto done;
  if ((st = accelc_bundle_input(b, 0, &in)) != ACCELC_OK) goto done;
  if (inPlace && (st = accelc_session_input_buffer(s, 0, &bound, &bytes)) != ACCELC_OK) goto done;
  x = inPlace ? (float*)bound : (float*)malloc(in.bytes);
  f = fopen(argv[3], "rb");
  if (!x || !f || fread(x, 1, in.bytes, f) != in.bytes) {
    fprintf(stderr, "cannot read %lu bytes from %s\n", (unsigned long)in.bytes, argv[3]);
    if (f) fclose(f);
    rc = 2;
    goto done;
  }
  fclose(f);
  if (!inPlace && (st = accelc_session_set_input(s, 0, x, in.bytes)) != ACCELC_OK) goto done;
  if ((st = accelc_session_run(s)) != ACCELC_OK) goto done;
  for (i = 0; i < accelc_bundle_output_count(b); ++i) {
    if ((st = accelc_bundle_output(b, i, &out)) != ACCELC_OK) goto done;
    if (inPlace) {
      if ((st = accelc_session_output_buffer(s, i, &view, &bytes)) != ACCELC_OK) goto done;
    } else {
      free(y);
      y = (float*)malloc(out.bytes);
      if ((st = accelc_session_get_output(s, i, y, out.bytes)) != ACCELC_OK) goto done;
      view = y;
    }
    printf("output %s rank %d:", out.name, out.rank);
    for (k = 0; k < out.rank; ++k) printf(" %lld", (long long)out.dims[k]);
    printf("\n");
    for (k = 0; k < (int)(out.bytes / sizeof(float)); ++k) printf("%.9g\n", ((const float*)view)[k]);
  }
  printf("steps %d\n", accelc_session_step_count(s));
done:
  if (st != ACCELC_OK) rc = failed(st);
  free(y);
  if (!inPlace) free(x);
  accelc_session_destroy(s);
  accelc_bundle_close(b);
  return rc;
}
