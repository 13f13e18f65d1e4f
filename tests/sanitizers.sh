# Sourced before building and running the ASan+UBSan configuration
# (build-asan, ACCELC_SANITIZE=ON): the sanitizers' options, pinned.
# - detect_stack_use_after_return=0: SystemC 2.3.4's coroutines switch stacks,
#   which that check cannot follow (it crashes the cycle model).
# - The SystemC kernel keeps its simulation context for the life of the
#   process on purpose; tests/lsan.supp names it, and every other leak fails.
# - UBSan stops at the first finding and prints its stack.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export ASAN_OPTIONS="detect_stack_use_after_return=0:detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
