# Cross build of the deploy runtime for armv7 (arm-linux-gnueabihf), Debian's cross toolchain:
#   cmake -S . -B build-deploy-armv7 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-armv7.cmake -DACCELC_DEPLOY_ONLY=ON
# Programs built for the target (the instruction-set generator among them) run under
# qemu-user with the target's own C library from Debian's multiarch packages (libc6:ARCH, which the
# runtime libraries bring; scripts/bootstrap.sh): the dynamic loader and the C library must come from
# one package, so never with -L and the cross toolchain's loader. The emulator: qemu-arm.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabihf-g++)
set(CMAKE_LIBRARY_ARCHITECTURE arm-linux-gnueabihf)
set(CMAKE_C_FLAGS_INIT "-march=armv7-a -mfpu=neon -mfloat-abi=hard")
set(CMAKE_CXX_FLAGS_INIT "-march=armv7-a -mfpu=neon -mfloat-abi=hard")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-arm)
set(CMAKE_FIND_ROOT_PATH /usr/arm-linux-gnueabihf)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
