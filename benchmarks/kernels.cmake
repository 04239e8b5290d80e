# SPDX-License-Identifier: Apache-2.0
# Scanner throughput against the 200 MB/s target.
add_executable(scan_bench ${CMAKE_CURRENT_LIST_DIR}/scan_bench.cpp)
target_link_libraries(scan_bench PRIVATE kf_kernels kf_build_flags)
target_compile_definitions(scan_bench PRIVATE KF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
