// SPDX-License-Identifier: Apache-2.0
#include "llm/kernel_prompt.hpp"

#include <array>

#include <fmt/format.h>

#include "llm/prompt_template.hpp"
#include "llm/source_text.hpp"

namespace kforecast::llm {
namespace {

constexpr std::array<std::string_view, 8> placeholders{"kernel_name",
                                                       "gpu_properties",
                                                       "launch_configuration",
                                                       "reference_compiler_facts",
                                                       "candidate_compiler_facts",
                                                       "changes",
                                                       "reference_source",
                                                       "candidate_source"};

// Untrusted text goes between BEGIN/END marker lines; text that spells a marker itself could
// close the block early, so such spellings are lowered to lower case.
std::string fenced(std::string text) {
  for (std::string_view marker :
       {"BEGIN REFERENCE", "END REFERENCE", "BEGIN CANDIDATE", "END CANDIDATE", "BEGIN LAUNCH", "END LAUNCH",
        "BEGIN CHANGES", "END CHANGES"}) {
    for (std::size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + marker.size()))
      for (std::size_t i = at; i < at + marker.size(); ++i)
        if (text[i] >= 'A' && text[i] <= 'Z') text[i] = static_cast<char>(text[i] - 'A' + 'a');
  }
  return text;
}

std::string source_block(const std::string& source, Comments comments) {
  std::string text = comments == Comments::strip ? strip_comments(source) : source;
  if (text.size() > max_source_chars) {
    const std::size_t cut = text.size() - max_source_chars;
    text.resize(max_source_chars);
    text += fmt::format("\n[... {} more characters not shown ...]", cut);
  }
  return fenced(std::move(text));
}

std::string or_missing(const std::string& text, std::string_view missing) {
  return text.empty() ? std::string(missing) : fenced(text);
}

// One change a line; the lines come from the revisions under review (names of macros, headers).
std::string changes_text(const std::vector<std::string>& changes) {
  std::string text;
  for (const auto& change : changes) text += (text.empty() ? "- " : "\n- ") + change;
  return text;
}

}  // namespace

std::span<const std::string_view> user_placeholders() { return placeholders; }

Result<PromptMessages> build_prompt(const PromptSet& prompts, const KernelPair& pair, const GpuProperties& gpu,
                                    Comments comments) {
  const TemplateValues values{
      {"kernel_name", fenced(pair.kernel_name)},
      {"gpu_properties", describe(gpu)},
      {"launch_configuration", or_missing(pair.launch_configuration, no_launch_spec_text)},
      {"reference_compiler_facts", or_missing(pair.reference_compiler_facts, "not available")},
      {"candidate_compiler_facts", or_missing(pair.candidate_compiler_facts, "not available")},
      {"changes", or_missing(changes_text(pair.changes), "nothing found beyond the source")},
      {"reference_source", source_block(pair.reference_source, comments)},
      {"candidate_source", source_block(pair.candidate_source, comments)},
  };
  auto system = render_template(prompts.system, {}, "prompts/system.txt");
  if (!system) return std::unexpected(system.error());
  auto user = render_template(prompts.user, values, "prompts/user.txt");
  if (!user) return std::unexpected(user.error());
  return PromptMessages{std::move(*system), std::move(*user)};
}

}  // namespace kforecast::llm
