// SPDX-License-Identifier: Apache-2.0
// Launch specs come from a repository's config and source comments: any bytes must give specs
// or an Error, never a crash. The input is read three ways: as a config, as a comment block
// above a kernel, and, line by line, as size expressions. Each spec read is also described as
// the LLM prompt shows it. The input is also kernel source for `kforecast spec suggest`
// (bench/spec_draft): a draft of k, with the input as its own file and as a host that launches it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bench/expression.hpp"
#include "bench/launch_description.hpp"
#include "bench/launch_spec_reader.hpp"
#include "bench/resolved_launch.hpp"
#include "bench/spec_draft.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::bench;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const std::vector<kforecast::kernels::Parameter> parameters{
      {"const float*", "x", ""}, {"float*", "y", ""}, {"int", "n", ""}, {"double", "a", ""}};
  if (auto specs = read_config_specs(text, "fuzz.toml"))
    for (const auto& spec : *specs) {
      for (const auto& size_variables : spec.sizes)
        (void)resolve_launch(spec, size_variables, parameters, std::int64_t{1} << 20);
      (void)describe_launch(spec, parameters, "fuzz");
    }
  const std::string source = std::string(text) + "\n__global__ void k(const float* x, float* y, int n, double a) {}\n";
  std::uint32_t lines = 1;
  for (char c : text) lines += c == '\n';
  if (auto spec = read_comment_spec(source, lines + 1, "k", "fuzz.cu"); spec && *spec) {
    for (const auto& size_variables : (*spec)->sizes)
      (void)resolve_launch(**spec, size_variables, parameters, std::int64_t{1} << 20);
    (void)describe_launch(**spec, parameters, "fuzz");
  }
  const std::array hosts{HostSource{"host.cu", text}};
  for (const auto format : {DraftFormat::comment_block, DraftFormat::config_table})
    if (auto draft = draft_launch_spec(source, "fuzz.cu", "k", hosts, format);
        draft && format == DraftFormat::config_table)
      (void)read_config_specs(draft->text, "draft.toml");
  const SizeVariables variables{{"n", 1000}, {"M", INT64_MAX}};
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    (void)evaluate(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start), variables);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return 0;
}
