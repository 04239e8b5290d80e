# SPDX-License-Identifier: Apache-2.0
# The LLM client against a loopback fake endpoint: concurrency, per-request overhead, memory, cache.
if(TARGET kf_fake_http)
  add_executable(llm_client_bench ${CMAKE_CURRENT_LIST_DIR}/llm_client_bench.cpp)
  target_link_libraries(llm_client_bench PRIVATE kf_llm kf_fake_http kf_build_flags)
endif()
