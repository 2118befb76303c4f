# Finds NCCL (installed with the CUDA Toolkit under /usr/local/cuda), which ships no CMake config.
# Defines NCCL::NCCL.
find_path(NCCL_INCLUDE_DIR nccl.h HINTS /usr/local/cuda/include ${CUDAToolkit_INCLUDE_DIRS})
find_library(NCCL_LIBRARY nccl HINTS /usr/local/cuda/lib64 ${CUDAToolkit_LIBRARY_DIR})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL DEFAULT_MSG NCCL_LIBRARY NCCL_INCLUDE_DIR)
if(NCCL_FOUND AND NOT TARGET NCCL::NCCL)
  add_library(NCCL::NCCL UNKNOWN IMPORTED)
  set_target_properties(NCCL::NCCL PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
endif()
mark_as_advanced(NCCL_INCLUDE_DIR NCCL_LIBRARY)
