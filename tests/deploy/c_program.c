/* tests/deploy/c_program.c — a C program over the deploy runtime's public
 * header alone (accelc_runtime.h), as a user on a board would write one.
 *
 *   c_program BUNDLE DEVICE INPUT.f32
 *
 * Reads one inference's input as raw float32 (the bundle's first input),
 * runs it, and prints every output's name, shape and values ("%.9g", one per
 * line), then the step count. On an error: the status and accelc_last_error()
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
  FILE* f;
  int i, k, rc = 0;
  if (argc != 4) {
    fprintf(stderr, "usage: c_program BUNDLE DEVICE INPUT.f32\n");
    return 2;
  }
  /* One way out: every handle is released whatever failed. */
  if ((st = accelc_bundle_open(argv[1], &b)) != ACCELC_OK) goto done;
  if ((st = accelc_session_create(b, argv[2], NULL, &s)) != ACCELC_OK) goto done;
  if ((st = accelc_bundle_input(b, 0, &in)) != ACCELC_OK) goto done;
  x = (float*)malloc(in.bytes);
  f = fopen(argv[3], "rb");
  if (!x || !f || fread(x, 1, in.bytes, f) != in.bytes) {
    fprintf(stderr, "cannot read %lu bytes from %s\n", (unsigned long)in.bytes, argv[3]);
    if (f) fclose(f);
    rc = 2;
    goto done;
  }
  fclose(f);
  if ((st = accelc_session_set_input(s, 0, x, in.bytes)) != ACCELC_OK) goto done;
  if ((st = accelc_session_run(s)) != ACCELC_OK) goto done;
  for (i = 0; i < accelc_bundle_output_count(b); ++i) {
    if ((st = accelc_bundle_output(b, i, &out)) != ACCELC_OK) goto done;
    free(y);
    y = (float*)malloc(out.bytes);
    if ((st = accelc_session_get_output(s, i, y, out.bytes)) != ACCELC_OK) goto done;
    printf("output %s rank %d:", out.name, out.rank);
    for (k = 0; k < out.rank; ++k) printf(" %lld", (long long)out.dims[k]);
    printf("\n");
    for (k = 0; k < (int)(out.bytes / sizeof(float)); ++k) printf("%.9g\n", y[k]);
  }
  printf("steps %d\n", accelc_session_step_count(s));
done:
  if (st != ACCELC_OK) rc = failed(st);
  free(y);
  free(x);
  accelc_session_destroy(s);
  accelc_bundle_close(b);
  return rc;
}
