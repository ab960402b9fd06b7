# FindGraphviz: Graphviz's layout library libgvc and its graph library cgraph (Debian:
# libgraphviz-dev), which ship pkg-config files but no CMake package. Defines the imported
# target Graphviz::gvc and the cache variables Graphviz_INCLUDE_DIR, Graphviz_gvc_LIBRARY and
# Graphviz_cgraph_LIBRARY (set them to pick another copy). Used by cellgraph's build and
# installed beside cellgraphConfig.cmake, which finds Graphviz the same way for consumers.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_Graphviz QUIET libgvc)  # hints only: the search below decides
endif()
# Graphviz's headers include each other without their folder ("cgraph.h"): the folder itself
# is the include directory, as pkg-config says.
find_path(Graphviz_INCLUDE_DIR gvc.h HINTS ${PC_Graphviz_INCLUDE_DIRS} PATH_SUFFIXES graphviz)
find_library(Graphviz_gvc_LIBRARY gvc HINTS ${PC_Graphviz_LIBRARY_DIRS})
find_library(Graphviz_cgraph_LIBRARY cgraph HINTS ${PC_Graphviz_LIBRARY_DIRS})
set(Graphviz_VERSION "${PC_Graphviz_VERSION}")

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Graphviz REQUIRED_VARS Graphviz_gvc_LIBRARY Graphviz_cgraph_LIBRARY
                                                         Graphviz_INCLUDE_DIR VERSION_VAR Graphviz_VERSION)

if(Graphviz_FOUND AND NOT TARGET Graphviz::gvc)
  add_library(Graphviz::gvc UNKNOWN IMPORTED)
  set_target_properties(Graphviz::gvc PROPERTIES IMPORTED_LOCATION "${Graphviz_gvc_LIBRARY}"
                                                 INTERFACE_INCLUDE_DIRECTORIES "${Graphviz_INCLUDE_DIR}"
                                                 INTERFACE_LINK_LIBRARIES "${Graphviz_cgraph_LIBRARY}")
endif()
mark_as_advanced(Graphviz_INCLUDE_DIR Graphviz_gvc_LIBRARY Graphviz_cgraph_LIBRARY)
