// SPDX-License-Identifier: Apache-2.0
#pragma once

// One kernel pair as the prompt presents it. Inputs are plain strings so any source of kernel
// text plugs in (a whole device-only unit, a focused per-kernel excerpt, an eval dataset's
// `source`); facts and launch text are optional and say "not available" when empty.

#include <span>
#include <string>
#include <vector>
#include <string_view>

#include "base/error.hpp"
#include "base/shared_text.hpp"
#include "llm/gpu_properties.hpp"
#include "llm/prompt_set.hpp"

namespace kforecast::llm {

struct KernelPair {
  std::string kernel_name;
  SharedText reference_source;  // shared with every other kernel of the same file
  SharedText candidate_source;
  std::string reference_compiler_facts;  // registers, spills, shared/local memory, ... or ""
  std::string candidate_compiler_facts;
  std::string launch_configuration;  // grid, block, problem sizes from a launch spec, or "" (none known)
  std::vector<std::string> changes;  // what changed beyond the source (forecasters::ForecastRequest::changes)
};

enum class Comments { strip, keep };

struct PromptMessages {
  std::string system;
  std::string user;
};

// The names user.txt may use.
std::span<const std::string_view> user_placeholders();

// What the prompt says where a kernel has no (usable) launch spec.
inline constexpr std::string_view no_launch_spec_text = "no launch spec: sizes unknown";

// Each source longer than this is cut (with a marker saying so): a prompt must fit the model.
inline constexpr std::size_t max_source_chars = std::size_t{48} * 1024;

Result<PromptMessages> build_prompt(const PromptSet& prompts, const KernelPair& pair, const GpuProperties& gpu,
                                    Comments comments);

}  // namespace kforecast::llm
