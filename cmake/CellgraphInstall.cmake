# cmake --install: the library, its headers, the cellgraph program, the data files runs look up,
# and cellgraphConfig.cmake, so that another CMake project can
#   find_package(cellgraph 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE cellgraph::cellgraph)
# (docs/BUILDING.md; tests/consumer is such a project, tools/check_install.sh builds it).
#
# Layout under the prefix:
#   bin/cellgraph
#   lib/libcellgraph.a, lib/cellgraph/objects-CONFIG/cellgraph_models/...  (the model files' objects)
#   include/cellgraph/cellgraph/...  (include/cellgraph of the source tree)
#   include/cellgraph/models/registry.hpp, params.hpp  (models by name)
#   share/cellgraph/rules, share/cellgraph/examples
#   lib/cmake/cellgraph/  (cellgraphConfig.cmake, its version file, FindMETIS.cmake, FindGraphviz.cmake)
# The include root is include/cellgraph, not include: consumers write the same #include lines as
# the library's own code ("cellgraph/simulation.hpp", "models/registry.hpp") without a folder
# named models/ landing in the prefix's shared include folder.
#
# Model registration. Each models/*.model.cpp registers its models from a static initializer
# that nothing references, so an archive member holding one would never be taken by the
# linker. In the build tree the model files are an object library whose objects every program
# that links cellgraph gets ($<TARGET_OBJECTS> in cellgraph's link interface, src/CMakeLists.txt).
# Installed, the same holds: the object library is installed and exported too (install(TARGETS
# ... OBJECTS), CMake >= 3.14), and cellgraph::cellgraph's link interface names its objects
# ($<INSTALL_INTERFACE:$<TARGET_OBJECTS:cellgraph::cellgraph_models>>), so a consumer's link line
# lists every model object file by path, before all libraries (CMake >= 3.21 places
# $<TARGET_OBJECTS> link items so): the linker keeps every object file it is given, so every
# registration runs, with no --whole-archive (whose CMake spelling,
# $<LINK_LIBRARY:WHOLE_ARCHIVE>, would need CMake >= 3.24 in every consumer, and would pull all
# of libcellgraph.a in). Model objects added to libcellgraph.a instead would be dropped without a
# word: a consumer's find_model() would know no model.
include(CMakePackageConfigHelpers)

set(CELLGRAPH_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/cellgraph)

# What a consumer must add that the build tree gets from directory-wide settings: C++20 (the
# public headers use it), and the sanitizer runtimes where the library was built with them.
set_property(TARGET cellgraph APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_20)
if(CELLGRAPH_SANITIZE)
  set_property(TARGET cellgraph_headers APPEND PROPERTY INTERFACE_LINK_OPTIONS
               "$<INSTALL_INTERFACE:-fsanitize=address,undefined>")
endif()

install(TARGETS cellgraph cellgraph_headers cellgraph_models EXPORT cellgraphTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/cellgraph)
install(TARGETS cellgraph_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/cellgraph DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cellgraph
        FILES_MATCHING PATTERN "*.hpp")
# Building and running a registered model by name; these include only include/cellgraph headers
# (tests/consumer compiles against the installed copy).
install(FILES ${PROJECT_SOURCE_DIR}/models/registry.hpp ${PROJECT_SOURCE_DIR}/models/params.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cellgraph/models)

# Golly rule files (models/golly.cpp looks in CELLGRAPH_INSTALLED_DATA_DIR/rules: the data folder
# under the prefix given at configure time) and the example configurations.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/rules ${PROJECT_SOURCE_DIR}/data/examples
        DESTINATION ${CMAKE_INSTALL_DATADIR}/cellgraph)

# For cellgraphConfig.cmake: whether the library has the CUDA backend, and for which GPUs.
set(CELLGRAPH_CONFIG_CUDA OFF)
set(CELLGRAPH_CONFIG_CUDA_ARCHITECTURES "")
if(CELLGRAPH_HAVE_CUDA)
  set(CELLGRAPH_CONFIG_CUDA ON)
  set(CELLGRAPH_CONFIG_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
  if(CMAKE_CUDA_ARCHITECTURES STREQUAL "native")
    set(CELLGRAPH_CONFIG_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
  endif()
endif()
install(EXPORT cellgraphTargets NAMESPACE cellgraph:: DESTINATION ${CELLGRAPH_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/cellgraphConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/cellgraphConfig.cmake
                              INSTALL_DESTINATION ${CELLGRAPH_INSTALL_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_DATADIR)
# 0.x: a minor version may break the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cellgraphConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cellgraphConfig.cmake ${PROJECT_BINARY_DIR}/cellgraphConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindMETIS.cmake ${PROJECT_SOURCE_DIR}/cmake/FindGraphviz.cmake
        DESTINATION ${CELLGRAPH_INSTALL_CMAKEDIR})
