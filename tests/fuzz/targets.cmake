# SPDX-License-Identifier: Apache-2.0
# One line per parser of untrusted input.
kf_fuzz_target(config config_fuzz.cpp DEPS kf_config)
kf_fuzz_target(ptx_code ptx_code_fuzz.cpp DEPS kf_policy)
kf_fuzz_target(ptxas_report ptxas_report_fuzz.cpp DEPS kf_cuda)
kf_fuzz_target(unified_diff unified_diff_fuzz.cpp DEPS kf_diff)
kf_fuzz_target(cuda_scanner cuda_scanner_fuzz.cpp CORPUS fixtures/cuda DEPS kf_kernels)
kf_fuzz_target(lint_rules lint_rules_fuzz.cpp CORPUS rules DEPS kf_lint)
kf_fuzz_target(lint_source lint_source_fuzz.cpp CORPUS fixtures/lint DEPS kf_lint)
kf_fuzz_target(ptx_mix ptx_mix_fuzz.cpp DEPS kf_embedded)
kf_fuzz_target(labelled_pairs labelled_pairs_fuzz.cpp DEPS kf_embedded)
kf_fuzz_target(github_event github_event_fuzz.cpp DEPS kf_git)
kf_fuzz_target(ledger ledger_fuzz.cpp DEPS kf_policy)
