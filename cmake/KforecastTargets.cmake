# SPDX-License-Identifier: Apache-2.0
# Shared build settings: every kforecast library links kf_build_flags, so warnings and
# sanitizers are set once. Third-party headers are included as SYSTEM and stay outside -Werror.

add_library(kf_build_flags INTERFACE)
# Warnings fail our own builds (every preset sets KFORECAST_WERROR), not a user's build with a
# compiler we never test: GCC 13 warns falsely inside fmt (-Warray-bounds) on ubuntu-24.04.
set(kf_werror "")
if(KFORECAST_WERROR)
  set(kf_werror -Werror)
endif()
target_compile_options(kf_build_flags INTERFACE -Wall -Wextra ${kf_werror} -Wshadow -Wnon-virtual-dtor
                                                -Wno-missing-field-initializers  # designated initialisers may omit defaulted members
                                                -Wno-restrict)  # GCC 12 false positives in std::string at -O3 (GCC bug 105329)
target_include_directories(kf_build_flags INTERFACE ${PROJECT_SOURCE_DIR}/src ${PROJECT_BINARY_DIR}/generated)
if(KFORECAST_SANITIZE)
  target_compile_options(kf_build_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                  -fno-sanitize-recover=all)
  target_link_options(kf_build_flags INTERFACE -fsanitize=address,undefined)
  # The sanitizer runtimes bring libstdc++ back as a shared library; tests that check the
  # shipped binary's dependencies need to know.
  target_compile_definitions(kf_build_flags INTERFACE KF_SANITIZED=1)
endif()

# toml++ header-only (Debian also ships a shared build; header-only keeps the binary self-contained).
add_library(kf_toml INTERFACE)
target_compile_definitions(kf_toml INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)
get_target_property(_toml_inc tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
target_include_directories(kf_toml SYSTEM INTERFACE ${_toml_inc})

# simdjson is a shared library from Debian (no static build is shipped), so the binary links it,
# and with it the shared C++ runtime; libcurl, also Debian's, is opened at run time. Their
# headers are SYSTEM too.
add_library(kf_simdjson INTERFACE)
target_link_libraries(kf_simdjson INTERFACE simdjson::simdjson)
get_target_property(_simdjson_inc simdjson::simdjson INTERFACE_INCLUDE_DIRECTORIES)
target_include_directories(kf_simdjson SYSTEM INTERFACE ${_simdjson_inc})
# libcurl is not linked but opened when the first request is made (src/http/libcurl_on_demand.cpp):
# linked, it and the ~30 libraries it needs were loaded at every start of every command.
add_library(kf_curl STATIC ${PROJECT_SOURCE_DIR}/src/http/libcurl_on_demand.cpp)
get_target_property(_curl_inc CURL::libcurl INTERFACE_INCLUDE_DIRECTORIES)
if(_curl_inc)
  target_include_directories(kf_curl SYSTEM PUBLIC ${_curl_inc})
endif()
target_link_libraries(kf_curl PUBLIC kf_build_flags ${CMAKE_DL_LIBS})

# kf_library(NAME SOURCES... [DEPS ...]): one static library per pipeline stage or shared piece.
# A stage lists only the libraries it may use, so CMake enforces the one-way dependencies.
function(kf_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_link_libraries(${name} PUBLIC kf_build_flags fmt::fmt ${ARG_DEPS})
endfunction()
