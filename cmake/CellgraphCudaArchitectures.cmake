# Which GPUs the CUDA backend is built for: CMake's own CMAKE_CUDA_ARCHITECTURES, the one
# mechanism (docs/BUILDING.md). A list chosen at configure time is kept as it is:
#   -DCMAKE_CUDA_ARCHITECTURES="80;86;89;90;100;120"   (or the CUDAARCHS environment variable)
# Left unset, it defaults to the GPUs of the machine that configures: "native" where
# `nvidia-smi -L` lists a GPU, else 90 (Hopper), so that machines without a GPU (CI, build
# hosts) build one architecture and stay fast. Each number N builds sm_N code plus compute_N
# PTX, which newer GPUs compile at load time; "native" builds sm_N code only (N-real).
# nvidia-smi decides first because CMake's "native" on a machine with no GPU fails only at the
# generate step ("no GPU was detected"); where it lists one but CMake's detection still finds
# none (a driver too old for this toolkit), the build falls back to 90 with a warning.

# Before enable_language(CUDA), once check_language(CUDA) has found the compiler: the default,
# and a check of the list against what this nvcc builds for, so that a list naming one it does
# not (sm_70 is gone from CUDA 13) stops with that list instead of CMake's failed compiler test.
function(cellgraph_choose_cuda_architectures)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
    set(default 90)
    find_program(CELLGRAPH_NVIDIA_SMI nvidia-smi)
    mark_as_advanced(CELLGRAPH_NVIDIA_SMI)
    if(CELLGRAPH_NVIDIA_SMI)
      # Fails (non-zero status) where the driver is missing or sees no device.
      execute_process(COMMAND "${CELLGRAPH_NVIDIA_SMI}" -L RESULT_VARIABLE status OUTPUT_VARIABLE gpus
                      ERROR_QUIET TIMEOUT 30)
      if(status EQUAL 0 AND gpus MATCHES "GPU [0-9]+:")
        set(default native)
      endif()
    endif()
    set(CMAKE_CUDA_ARCHITECTURES ${default} CACHE STRING
        "CUDA architectures to build for: native (this machine's GPUs), or a list such as 80;86;89;90;100;120")
    set(CELLGRAPH_CUDA_ARCHITECTURES_DEFAULT ${default} CACHE INTERNAL "the CMAKE_CUDA_ARCHITECTURES the build chose")
  endif()

  if(DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(archs "${CMAKE_CUDA_ARCHITECTURES}")
  else()
    set(archs "$ENV{CUDAARCHS}")
  endif()
  if(NOT archs MATCHES "^[0-9]")  # native, all, all-major: CMake resolves them
    return()
  endif()
  # nvcc before 11.0 (no --list-gpu-arch), or clang: the compiler's own errors will do.
  execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --list-gpu-arch RESULT_VARIABLE status OUTPUT_VARIABLE listed
                  ERROR_QUIET)
  if(NOT status EQUAL 0 OR NOT listed MATCHES "compute_[0-9]+")
    return()
  endif()
  string(REGEX MATCHALL "compute_[0-9]+" listed "${listed}")
  string(REPLACE "compute_" "" supported "${listed}")
  set(unsupported "")
  foreach(arch IN LISTS archs)
    string(REGEX REPLACE "^([0-9]+).*" "\\1" number "${arch}")
    if(NOT number IN_LIST supported)
      list(APPEND unsupported ${arch})
    endif()
  endforeach()
  if(unsupported)
    list(JOIN unsupported ", " unsupported)
    list(JOIN supported " " supported)
    message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES names ${unsupported}, which ${CMAKE_CUDA_COMPILER} cannot build "
                        "for. It builds for: ${supported}. (Older GPUs need an older CUDA toolkit.)")
  endif()
endfunction()

# After enable_language(CUDA): "native" that found no usable GPU falls back to 90 where it was
# the default, and stops where it was asked for.
function(cellgraph_check_cuda_architectures)
  set(archs "${CMAKE_CUDA_ARCHITECTURES}")
  if(archs STREQUAL "native")
    if(CMAKE_CUDA_ARCHITECTURES_NATIVE)
      message(STATUS "cellgraph: CUDA architectures native: ${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
      return()
    endif()
    if(NOT CELLGRAPH_CUDA_ARCHITECTURES_DEFAULT STREQUAL "native")  # asked for, not the default
      message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES=native, but CMake found no GPU it can run on here (none, or a "
                          "driver older than CUDA ${CMAKE_CUDA_COMPILER_VERSION}). Name the architectures instead: "
                          "-DCMAKE_CUDA_ARCHITECTURES=\"80;90\" (docs/BUILDING.md).")
    endif()
    message(WARNING "nvidia-smi lists a GPU, but CMake could not detect its architecture (driver older than "
                    "CUDA ${CMAKE_CUDA_COMPILER_VERSION}?): building for 90 (Hopper). Choose others with "
                    "-DCMAKE_CUDA_ARCHITECTURES=... (docs/BUILDING.md).")
    set(archs 90)
    set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures to build for" FORCE)
    set(CMAKE_CUDA_ARCHITECTURES 90 PARENT_SCOPE)
  endif()
  message(STATUS "cellgraph: CUDA architectures ${archs}")
endfunction()
