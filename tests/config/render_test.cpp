// SPDX-License-Identifier: Apache-2.0
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "config/render.hpp"

using namespace kforecast;
using namespace kforecast::config;
using Catch::Matchers::Contains;

TEST_CASE("config: the effective config says where each value came from") {
  auto config = parse_config("[cuda]\ndriver_library = \"/d.so\"\n", "repo/.kforecast.toml");
  REQUIRE(config.has_value());
  config = apply_environment(*config, fixed_environment({{"KFORECAST_NVRTC_LIBRARY", "/n.so"}}));
  REQUIRE(config.has_value());
  const std::string text = render_effective(*config);
  CHECK_THAT(text, Contains("[cuda]\n"));
  CHECK_THAT(text, Contains("driver_library = \"/d.so\"  # from repo/.kforecast.toml:2"));
  CHECK_THAT(text, Contains("nvrtc_library = \"/n.so\"  # from $KFORECAST_NVRTC_LIBRARY"));
  CHECK_THAT(text, Contains("max_p_regression = 0.2  # default\n"));
  CHECK_THAT(text, Contains("format = \"md\"  # default\n"));
  CHECK_THAT(text, Contains("# [[kernel]]"));
}

TEST_CASE("config: docs/config.md matches the key table") {
  std::ifstream in(KF_SOURCE_DIR "/docs/config.md");
  REQUIRE(in.good());
  const std::string committed{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // On failure regenerate it: build/release/src/kforecast config --reference > docs/config.md
  CHECK(committed == render_reference_markdown());
}

TEST_CASE("config: the reference lists every key") {
  const std::string text = render_reference_markdown();
  for (const KeySpec& spec : all_keys()) CHECK_THAT(text, Contains(fmt::format("| `{}` |", spec.name)));
}
