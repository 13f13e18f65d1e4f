# The deploy build's dependencies (ACCELC_DEPLOY_ONLY: the runtime and
# accelc-run). Natively they are found as usual. In a cross build for a
# board's cores, the target's shared libraries come from Debian's multiarch
# runtime packages (libyaml-cpp0.7, zlib1g and libimath-3-1-29 for arm64 or
# armhf; scripts/bootstrap.sh installs them), and the headers from the build
# machine's -dev packages, which are the same version and the same on every
# architecture; only those headers are put on the include path, never
# /usr/include itself, whose C library headers are the build machine's.
if(NOT CMAKE_CROSSCOMPILING)
  find_package(yaml-cpp 0.7 CONFIG REQUIRED)
  find_package(ZLIB REQUIRED)
  find_package(Imath 3 CONFIG REQUIRED)
  find_package(CLI11 2.1 CONFIG REQUIRED)
  find_package(nlohmann_json 3.11 CONFIG REQUIRED)
  return()
endif()

set(ACCELC_DEPLOY_LIBDIR /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE})
set(ACCELC_DEPLOY_INCLUDE ${CMAKE_BINARY_DIR}/deploy-include)
file(MAKE_DIRECTORY ${ACCELC_DEPLOY_INCLUDE})
foreach(header yaml-cpp zlib.h zconf.h Imath CLI nlohmann)
  if(NOT EXISTS /usr/include/${header})
    message(FATAL_ERROR "the deploy cross build needs /usr/include/${header} (scripts/bootstrap.sh installs it)")
  endif()
  file(CREATE_LINK /usr/include/${header} ${ACCELC_DEPLOY_INCLUDE}/${header} SYMBOLIC)
endforeach()

# name: the target; file: the shared library in the target's multiarch folder.
function(accelc_deploy_library name file)
  if(NOT EXISTS ${ACCELC_DEPLOY_LIBDIR}/${file})
    message(FATAL_ERROR "the deploy cross build needs ${ACCELC_DEPLOY_LIBDIR}/${file} "
                        "(Debian's ${CMAKE_LIBRARY_ARCHITECTURE} package; scripts/bootstrap.sh installs it)")
  endif()
  add_library(${name} SHARED IMPORTED GLOBAL)
  # An imported target's include folders are system folders to its users (no warnings of theirs).
  set_target_properties(${name} PROPERTIES IMPORTED_LOCATION ${ACCELC_DEPLOY_LIBDIR}/${file}
                        INTERFACE_INCLUDE_DIRECTORIES "${ACCELC_DEPLOY_INCLUDE};${ACCELC_DEPLOY_INCLUDE}/Imath")
endfunction()
accelc_deploy_library(yaml-cpp libyaml-cpp.so.0.7)
accelc_deploy_library(ZLIB::ZLIB libz.so.1)
accelc_deploy_library(Imath::Imath libImath-3_1.so.29)
foreach(name CLI11::CLI11 nlohmann_json::nlohmann_json)  # header only
  add_library(${name} INTERFACE IMPORTED GLOBAL)
  set_target_properties(${name} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${ACCELC_DEPLOY_INCLUDE})
endforeach()
# The libraries' own dependencies (libstdc++, libc) are the target's, found at link time beside them.
add_link_options(-Wl,-rpath-link,${ACCELC_DEPLOY_LIBDIR})
