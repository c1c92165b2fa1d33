# Cross builds: grt_mbedcrypto from Debian's mbedTLS source package (apt-get source mbedtls,
# fetched by tests/target/fetch-mbedtls-source.sh into the build tree, never committed),
# compiled with graphrt's minimal configuration (tests/target/mbedtls). Defines
# GRT_TARGET_MBEDTLS_FOUND. Without the source the runtime still compiles against Debian's
# host headers (libmbedtls-dev) and only firmware that verifies signatures is skipped.
set(GRT_MBEDTLS_SOURCE_DIR "" CACHE PATH "Unpacked Debian mbedTLS source package (default: newest build/mbedtls-source/mbedtls-*)")

set(_grt_mbedtls_root "${GRT_MBEDTLS_SOURCE_DIR}")
if(NOT _grt_mbedtls_root)
  file(GLOB _grt_mbedtls_candidates LIST_DIRECTORIES true "${CMAKE_SOURCE_DIR}/build/mbedtls-source/mbedtls-*")
  list(FILTER _grt_mbedtls_candidates EXCLUDE REGEX "\\.(tar|gz|xz|dsc)")
  if(_grt_mbedtls_candidates)
    list(SORT _grt_mbedtls_candidates COMPARE NATURAL ORDER DESCENDING)
    list(GET _grt_mbedtls_candidates 0 _grt_mbedtls_root)
  endif()
endif()

set(GRT_TARGET_MBEDTLS_FOUND OFF)
if(_grt_mbedtls_root AND EXISTS "${_grt_mbedtls_root}/library/ecdsa.c")
  set(GRT_TARGET_MBEDTLS_FOUND ON)
  message(STATUS "graphrt: mbedTLS for the target from ${_grt_mbedtls_root}")
  # A link to the host's headers left by an earlier configure would shadow these.
  if(IS_SYMLINK "${GRT_THIRD_PARTY_INCLUDE}/mbedtls")
    file(REMOVE "${GRT_THIRD_PARTY_INCLUDE}/mbedtls")
  endif()
  set(_grt_mbedtls_sources)
  foreach(unit sha256 asn1parse asn1write bignum constant_time ecp ecp_curves ecdsa
               platform platform_util memory_buffer_alloc)
    list(APPEND _grt_mbedtls_sources "${_grt_mbedtls_root}/library/${unit}.c")
  endforeach()
  add_library(grt_mbedcrypto STATIC ${_grt_mbedtls_sources})
  target_include_directories(grt_mbedcrypto SYSTEM PUBLIC
    "${CMAKE_SOURCE_DIR}/tests/target/mbedtls" "${_grt_mbedtls_root}/include")
  target_compile_definitions(grt_mbedcrypto PUBLIC MBEDTLS_CONFIG_FILE="graphrt_mbedtls_config.h")
else()
  set(_grt_mbedtls_message "graphrt: Debian's mbedTLS source package is not in build/mbedtls-source (or GRT_MBEDTLS_SOURCE_DIR): the signed firmware is skipped. Fetch it with: bash tests/target/fetch-mbedtls-source.sh")
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "${_grt_mbedtls_message}")
  endif()
  message(WARNING "${_grt_mbedtls_message}")
  # Debian's host headers (libmbedtls-dev, the same 2.28 release) with our configuration
  # instead of the host's (which wants pthreads), so the runtime's integrity code compiles;
  # nothing links it unless asked.
  find_path(GRT_MBEDTLS_INCLUDE mbedtls/sha256.h REQUIRED HINTS /usr/include NO_CMAKE_FIND_ROOT_PATH)
  if(NOT EXISTS "${GRT_THIRD_PARTY_INCLUDE}/mbedtls")
    file(CREATE_LINK "${GRT_MBEDTLS_INCLUDE}/mbedtls" "${GRT_THIRD_PARTY_INCLUDE}/mbedtls" SYMBOLIC)
  endif()
  add_library(grt_mbedcrypto INTERFACE)
  target_link_libraries(grt_mbedcrypto INTERFACE grt_third_party)
  target_include_directories(grt_mbedcrypto SYSTEM INTERFACE "${CMAKE_SOURCE_DIR}/tests/target/mbedtls")
  target_compile_definitions(grt_mbedcrypto INTERFACE MBEDTLS_CONFIG_FILE="graphrt_mbedtls_config.h")
endif()
