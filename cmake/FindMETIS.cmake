# FindMETIS: METIS (graph partitioning, mesh duals; Debian: libmetis-dev), which ships no CMake
# package of its own. Defines the imported target METIS::METIS and the cache variables
# METIS_INCLUDE_DIR and METIS_LIBRARY (set them to pick another copy). Used by cellgraph's build
# and installed beside cellgraphConfig.cmake, which finds METIS the same way for consumers.
find_path(METIS_INCLUDE_DIR metis.h)
find_library(METIS_LIBRARY metis)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(METIS REQUIRED_VARS METIS_LIBRARY METIS_INCLUDE_DIR)

if(METIS_FOUND AND NOT TARGET METIS::METIS)
  add_library(METIS::METIS UNKNOWN IMPORTED)
  set_target_properties(METIS::METIS PROPERTIES IMPORTED_LOCATION "${METIS_LIBRARY}"
                                                INTERFACE_INCLUDE_DIRECTORIES "${METIS_INCLUDE_DIR}")
endif()
mark_as_advanced(METIS_INCLUDE_DIR METIS_LIBRARY)
