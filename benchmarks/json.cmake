# SPDX-License-Identifier: Apache-2.0
# The JSON readers (ledger, plan, shard results, capture, Google Benchmark output): MB/s and µs per
# file through kforecast's own readers, so a change of JSON library is judged on what kforecast reads.
add_executable(json_read_bench ${CMAKE_CURRENT_LIST_DIR}/json_read_bench.cpp)
target_link_libraries(json_read_bench PRIVATE kf_build_flags kf_policy kf_plan kf_capture kf_harness)
target_compile_definitions(json_read_bench PRIVATE KF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
