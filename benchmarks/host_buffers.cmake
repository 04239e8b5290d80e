# SPDX-License-Identifier: Apache-2.0
# The bench runner's host work on the GPU clock: drawing initial values and comparing outputs,
# ms per 1M elements for the common element types.
add_executable(host_buffers_bench ${CMAKE_CURRENT_LIST_DIR}/host_buffers_bench.cpp)
target_link_libraries(host_buffers_bench PRIVATE kf_build_flags kf_bench)
