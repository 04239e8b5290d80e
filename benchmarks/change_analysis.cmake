# SPDX-License-Identifier: Apache-2.0
# What finding the changed kernels of a revision costs, a reformat and an edit.
add_executable(change_analysis_bench ${CMAKE_CURRENT_LIST_DIR}/change_analysis_bench.cpp)
target_link_libraries(change_analysis_bench PRIVATE kf_kernel_changes kf_build_flags)
target_compile_definitions(change_analysis_bench PRIVATE KF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
