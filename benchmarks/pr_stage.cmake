# SPDX-License-Identifier: Apache-2.0
add_executable(pr_stage_bench ${CMAKE_CURRENT_LIST_DIR}/pr_stage_bench.cpp)
target_link_libraries(pr_stage_bench PRIVATE kf_base kf_build_flags)
target_compile_definitions(pr_stage_bench PRIVATE KF_BINARY="$<TARGET_FILE:kforecast>")
add_dependencies(pr_stage_bench kforecast)
