# SPDX-License-Identifier: Apache-2.0
# The embedded forecaster: time to forecast one pair of the corpus, with and without NVRTC facts
# (targets: under 1 ms without, under 50 ms with, NVRTC facts cached per text).
add_executable(embedded_forecast_bench ${CMAKE_CURRENT_LIST_DIR}/embedded_forecast_bench.cpp)
target_link_libraries(embedded_forecast_bench PRIVATE kf_build_flags kf_embedded kf_cuda kf_kernels)
target_compile_definitions(embedded_forecast_bench PRIVATE KF_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
