# `cmake --install`: headers, the device libraries of this build (host or one Cortex-M
# target), the `graphrt` tool on a host build, the Cortex-M toolchain files and linker
# scripts, a CMake package (find_package(graphrt CONFIG): graphrt::runtime, ... and
# graphrt_add_model()) and a pkg-config file for Make users.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

foreach(folder runtime allocators platform kernels)
  install(DIRECTORY "${CMAKE_SOURCE_DIR}/${folder}/include/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endforeach()

set(_grt_installed_libraries grt_runtime grt_runtime_minimal grt_kernels grt_allocators)
if(CMAKE_CROSSCOMPILING)
  set(GRT_PACKAGE_KIND cortex-m)
  list(APPEND _grt_installed_libraries grt_platform_cortex_m)
  get_target_property(_grt_mbedcrypto_type grt_mbedcrypto TYPE)
  if(_grt_mbedcrypto_type STREQUAL "STATIC_LIBRARY")
    list(APPEND _grt_installed_libraries grt_mbedcrypto)
  endif()
  # The board's linker script and the sections it includes.
  install(FILES "${GRT_LINKER_SCRIPT}" "${CMAKE_SOURCE_DIR}/platform/cortex-m/cortex_m_sections.ld"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/graphrt/cortex-m")
  get_filename_component(GRT_PACKAGE_LINKER_SCRIPT "${GRT_LINKER_SCRIPT}" NAME)
  # The port's own functions firmware may call (semihosting console and exit, stack usage).
  install(FILES "${CMAKE_SOURCE_DIR}/platform/cortex-m/semihosting.h" "${CMAKE_SOURCE_DIR}/platform/cortex-m/stack_usage.h"
          DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/graphrt/cortex-m")
else()
  set(GRT_PACKAGE_KIND host)
  list(APPEND _grt_installed_libraries grt_heap_allocator grt_platform_posix)
  if(GRT_BUILD_TOOLS)
    install(TARGETS graphrt RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  endif()
endif()
install(TARGETS ${_grt_installed_libraries} ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/cmake/toolchains/" DESTINATION "${CMAKE_INSTALL_DATADIR}/graphrt/toolchains")

set(_grt_config_dir "${CMAKE_INSTALL_LIBDIR}/cmake/graphrt")
configure_package_config_file("${CMAKE_SOURCE_DIR}/cmake/package/graphrtConfig.cmake.in"
                              "${CMAKE_BINARY_DIR}/package/graphrtConfig.cmake" INSTALL_DESTINATION "${_grt_config_dir}"
                              PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/package/graphrtConfigVersion.cmake" COMPATIBILITY SameMajorVersion)
install(FILES "${CMAKE_BINARY_DIR}/package/graphrtConfig.cmake" "${CMAKE_BINARY_DIR}/package/graphrtConfigVersion.cmake"
              "${CMAKE_SOURCE_DIR}/cmake/package/GraphrtAddModel.cmake" "${CMAKE_SOURCE_DIR}/cmake/package/graphrt_model_header.cmake"
        DESTINATION "${_grt_config_dir}")

if(NOT CMAKE_CROSSCOMPILING)
  configure_file("${CMAKE_SOURCE_DIR}/cmake/package/graphrt.pc.in" "${CMAKE_BINARY_DIR}/package/graphrt.pc" @ONLY)
  install(FILES "${CMAKE_BINARY_DIR}/package/graphrt.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()
