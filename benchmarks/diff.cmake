# SPDX-License-Identifier: Apache-2.0
# The diff stage: parse throughput and memory on a synthetic 50 MB git diff (target: 200 MB/s).
add_executable(diff_parse_bench ${CMAKE_CURRENT_LIST_DIR}/diff_parse_bench.cpp)
target_link_libraries(diff_parse_bench PRIVATE kf_build_flags kf_diff)
