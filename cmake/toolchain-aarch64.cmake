# Cross build of the deploy runtime for aarch64 (aarch64-linux-gnu), Debian's cross toolchain:
#   cmake -S . -B build-deploy-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake -DACCELC_DEPLOY_ONLY=ON
# Programs built for the target (the instruction-set generator among them) run under
# qemu-user with the target's own C library from Debian's multiarch packages (libc6:ARCH, which the
# runtime libraries bring; scripts/bootstrap.sh): the dynamic loader and the C library must come from
# one package, so never with -L and the cross toolchain's loader. The emulator: qemu-aarch64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
