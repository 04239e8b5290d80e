# SPDX-License-Identifier: Apache-2.0
# `kforecast lint --staged` on a 20-kernel staged change, against its pre-commit targets.
add_executable(lint_stage_bench ${CMAKE_CURRENT_LIST_DIR}/lint_stage_bench.cpp)
target_link_libraries(lint_stage_bench PRIVATE kf_base kf_build_flags)
target_compile_definitions(lint_stage_bench PRIVATE KF_BINARY="$<TARGET_FILE:kforecast>")
add_dependencies(lint_stage_bench kforecast)
# Where a cold lint's NVRTC time goes and what -minimal and compiling only changed kernels save
# (CPU-time ratios; NVRTC required, exits 77 without it).
add_executable(lint_nvrtc_bench ${CMAKE_CURRENT_LIST_DIR}/lint_nvrtc_bench.cpp)
target_link_libraries(lint_nvrtc_bench PRIVATE kf_lint_run kf_build_flags)
# What compiling in a confined child costs against NVRTC in process (NVRTC required).
add_executable(isolated_compile_bench ${CMAKE_CURRENT_LIST_DIR}/isolated_compile_bench.cpp)
target_link_libraries(isolated_compile_bench PRIVATE kf_cli kf_build_flags)
target_compile_definitions(isolated_compile_bench PRIVATE KF_BINARY="$<TARGET_FILE:kforecast>")
add_dependencies(isolated_compile_bench kforecast)
