/* runtime/include/accelc_runtime.h — the deploy runtime's C API (stable).
 *
 * Runs a compiled model (a bundle, .acx) on a device: the functional
 * simulator ("fsim"), a board's accelerator ("board:NAME") or a virtual
 * board ("virtual:NAME"). A program on a development machine that links
 * the library accelc_runtime_c_sim instead of accelc_runtime_c also has the
 * simulators' devices: "cycle", "rtl" and "hls". Host steps run on the
 * code the bundle carries, which must be built for this machine (a
 * session refuses another's), or on the reference kernels when it carries
 * none.
 *
 *   accelc_bundle* b;  accelc_session* s;
 *   if (accelc_bundle_open("model.acx", &b) != ACCELC_OK) puts(accelc_last_error());
 *   accelc_session_create(b, "fsim", NULL, &s);
 *   accelc_session_set_input(s, 0, pixels, sizeof pixels);   (the input's type and shape)
 *   accelc_session_run(s);
 *   accelc_session_get_output(s, 0, logits, sizeof logits);
 *   accelc_session_destroy(s);  accelc_bundle_close(b);
 *
 * Every call that returns a status sets accelc_last_error() on the calling
 * thread: "" on ACCELC_OK, else what went wrong and where.
 * No call aborts the process. A session is used by one thread at a time;
 * sessions of one bundle may run on different threads.
 */
#ifndef ACCELC_RUNTIME_H_
#define ACCELC_RUNTIME_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACCELC_RUNTIME_API_VERSION 2
#define ACCELC_MAX_RANK 8

typedef enum accelc_status {
  ACCELC_OK = 0,
  ACCELC_ERROR_ARGUMENT = 1, /* a null pointer, an index out of range, a buffer of the wrong size */
  ACCELC_ERROR_BUNDLE = 2,   /* the bundle cannot be read or is not valid */
  ACCELC_ERROR_DEVICE = 3,   /* the device cannot be had, or refuses the bundle */
  ACCELC_ERROR_RUN = 4,      /* the run stopped: a program fault, a limit, a host step's error */
  ACCELC_ERROR_STATE = 5     /* an output read before a run, or an input not set */
} accelc_status;

/* Element types, numbered as the bundle format numbers them (docs/formats.md);
 * data are little-endian, C order. */
typedef enum accelc_dtype {
  ACCELC_INT8 = 0,
  ACCELC_UINT8 = 1,
  ACCELC_INT32 = 2,
  ACCELC_INT64 = 3,
  ACCELC_FLOAT32 = 4,
  ACCELC_BOOL = 5, /* one byte, 0 or 1 */
  ACCELC_FLOAT64 = 6,
  ACCELC_FLOAT16 = 7,
  ACCELC_INT16 = 8,
  ACCELC_UINT16 = 9
} accelc_dtype;

/* A model input or output. */
typedef struct accelc_tensor_info {
  const char* name;     /* valid while the bundle is open */
  accelc_dtype dtype;
  int rank;
  int64_t dims[ACCELC_MAX_RANK];
  size_t bytes;         /* of one inference: the elements times their size */
} accelc_tensor_info;

/* One bundle step as the last run timed it. The strings are the session's:
 * valid until its next run (or its end). */
typedef struct accelc_step_timing {
  const char* name;
  const char* kind;     /* "accelerator", "host", "pack" or "unpack" */
  const char* runner;   /* a host step's kernel ("bundle aarch64 cortex-a53", "reference", ...); else "" */
  double seconds;       /* wall time of the last run */
  uint64_t cycles;      /* device cycles of the last run (timed devices; else 0) */
} accelc_step_timing;

/* Zero-initialize, then set what you need: fields added later keep their
 * zero meaning, and `api_version` (0 counts as 1) says which fields the
 * caller knows. */
typedef struct accelc_session_options {
  int api_version;
  int threads;          /* host kernels' thread pool; 0: one per core */
} accelc_session_options;

typedef struct accelc_bundle accelc_bundle;
typedef struct accelc_session accelc_session;

/* The message of the calling thread's last failed call ("" when none). */
const char* accelc_last_error(void);
/* ACCELC_RUNTIME_API_VERSION of the library. */
int accelc_api_version(void);

accelc_status accelc_bundle_open(const char* path, accelc_bundle** out);
void accelc_bundle_close(accelc_bundle* b);
int accelc_bundle_input_count(const accelc_bundle* b);
int accelc_bundle_output_count(const accelc_bundle* b);
accelc_status accelc_bundle_input(const accelc_bundle* b, int i, accelc_tensor_info* out);
accelc_status accelc_bundle_output(const accelc_bundle* b, int i, accelc_tensor_info* out);
/* The index of the input or output named `name`, or -1. */
int accelc_bundle_input_index(const accelc_bundle* b, const char* name);
int accelc_bundle_output_index(const accelc_bundle* b, const char* name);

/* A session of `b` (which must outlive it) on `device`: "fsim",
 * "board:NAME" or "virtual:NAME". `options` may be NULL. */
accelc_status accelc_session_create(const accelc_bundle* b, const char* device, const accelc_session_options* options,
                                    accelc_session** out);
void accelc_session_destroy(accelc_session* s);
/* Copies input `i` (its type, exactly its bytes) for the next runs. */
accelc_status accelc_session_set_input(accelc_session* s, int i, const void* data, size_t bytes);
/* Since API version 2: input `i` bound in place. `*data` is the session's
 * own storage of the input (`*bytes` long, aligned for any element type),
 * which every later run reads where it lies: write the input there instead
 * of copying it in with accelc_session_set_input. Valid for the session's
 * life; the input counts as set from this call on. */
accelc_status accelc_session_input_buffer(accelc_session* s, int i, void** data, size_t* bytes);
/* One inference on the inputs set. */
accelc_status accelc_session_run(accelc_session* s);
/* Copies output `i` of the last run (its type, exactly its bytes). */
accelc_status accelc_session_get_output(const accelc_session* s, int i, void* data, size_t bytes);
/* Since API version 2: output `i` of the last run where it lies, without a
 * copy; valid until the session's next run or its end. */
accelc_status accelc_session_output_buffer(const accelc_session* s, int i, const void** data, size_t* bytes);
/* The last run's steps: their count, and step `i`. */
int accelc_session_step_count(const accelc_session* s);
accelc_status accelc_session_step(const accelc_session* s, int i, accelc_step_timing* out);
/* Device cycles of the last run's accelerator steps (timed devices; else 0). */
uint64_t accelc_session_cycles(const accelc_session* s);

#ifdef __cplusplus
}
#endif

#endif /* ACCELC_RUNTIME_H_ */
