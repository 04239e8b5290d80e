# SPDX-License-Identifier: Apache-2.0
# The bench stage's sequential decision rule, simulated on the CPU under a measured noise model:
# false alarms, detection of 3% slowdowns and rounds per decision, against a fixed-look rule.
add_executable(decision_rule_bench ${CMAKE_CURRENT_LIST_DIR}/decision_rule_bench.cpp)
target_link_libraries(decision_rule_bench PRIVATE kf_build_flags kf_bench)
