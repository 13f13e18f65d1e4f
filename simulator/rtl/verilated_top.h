// simulator/rtl/verilated_top.h — the verilated model a harness in this folder
// wraps. ACCELC_RTL_TOP is the model's class, Verilator's --prefix
// (Vaccelc_model when not defined); this header includes it as
// VerilatedTop, and ACCELC_RTL_ENTRY(stem) names the harness's entry point
// stem<prefix>, so that harnesses of several models link into one program.
#ifndef ACCELC_SIMULATOR_RTL_VERILATED_TOP_H_
#define ACCELC_SIMULATOR_RTL_VERILATED_TOP_H_

#include "verilated.h"

#ifndef ACCELC_RTL_TOP
#define ACCELC_RTL_TOP Vaccelc_model
#endif
#define ACCELC_RTL_STR2(x) #x
#define ACCELC_RTL_HEADER(top) ACCELC_RTL_STR2(top.h)
#define ACCELC_RTL_CAT2(a, b) a##b
#define ACCELC_RTL_CAT(a, b) ACCELC_RTL_CAT2(a, b)
#define ACCELC_RTL_ENTRY(stem) ACCELC_RTL_CAT(stem, ACCELC_RTL_TOP)

#include ACCELC_RTL_HEADER(ACCELC_RTL_TOP)

using VerilatedTop = ACCELC_RTL_TOP;

#endif  // ACCELC_SIMULATOR_RTL_VERILATED_TOP_H_
