// SPDX-License-Identifier: Apache-2.0
// context_for: the database first (the file's own entry, else an including unit's), then the
// config, then inference.
#include "context/context_for.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;
using kforecast::kernels::RevisionSources;
using kforecast::kernels::SourceFiles;
using Strings = std::vector<std::string>;
using Defines = std::vector<std::pair<std::string, std::string>>;

namespace {

CompileDatabase sgemm_database() {
  auto database = parse_compile_database(
      R"([{"directory": "/repo/build", "file": "/repo/src/runner.cu",
           "command": "ccache /usr/local/cuda/bin/nvcc -I/repo/src -DRUNNER -arch=sm_86 -c /repo/src/runner.cu"},
          {"directory": "/repo/build", "file": "/repo/sgemm.cu", "arguments": ["nvcc", "-DMAIN"]}])",
      "build/compile_commands.json", DatabasePlace{"/repo", "/repo/build"});
  REQUIRE(database);
  return *database;
}

ConfiguredContexts configured(std::string_view toml) {
  auto config = kforecast::config::parse_config(toml, ".kforecast.toml");
  REQUIRE(config);
  auto contexts = read_configured_contexts(*config);
  REQUIRE(contexts);
  return *contexts;
}

const FolderLookup no_folders{[](const std::filesystem::path&) { return std::optional<std::filesystem::path>(); }};

IncludingUnits includers_of(std::map<std::string, Strings> graph) {
  return [graph = std::move(graph)](const std::string& file) {
    auto it = graph.find(file);
    return it == graph.end() ? Strings{} : it->second;
  };
}

}  // namespace

TEST_CASE("context for: a unit's own database entry, the compiler and its launcher left out") {
  const auto database = sgemm_database();
  ContextSources sources{"/repo", no_folders, &database, nullptr, nullptr};
  const auto context = context_for("src/runner.cu", sources, {});
  CHECK(context.origin == ContextOrigin::compile_database);
  CHECK(context.origin_detail == "build/compile_commands.json (entry for src/runner.cu)");
  CHECK(context.unit == "src/runner.cu");
  CHECK(context.include_dirs == Strings{"src"});
  CHECK(context.defines == Defines{{"RUNNER", ""}});
  CHECK(context.dropped ==
        Strings{"-arch=sm_86 (kforecast picks the architecture)", "-c (kforecast picks the output)"});
  CHECK(context.refused.empty());
}

TEST_CASE("context for: a header takes the context of the first including unit that has an entry") {
  const auto database = sgemm_database();
  ContextSources sources{"/repo", no_folders, &database, nullptr, nullptr};
  const auto includers = includers_of({{"src/kernels/1_naive.cuh", {"src/other.cu", "src/runner.cu", "sgemm.cu"}}});
  const auto context = context_for("src/kernels/1_naive.cuh", sources, includers);
  CHECK(context.origin == ContextOrigin::compile_database);
  CHECK(context.unit == "src/runner.cu");
  CHECK(context.origin_detail ==
        "build/compile_commands.json (entry for src/runner.cu, which includes src/kernels/1_naive.cuh)");
  CHECK(context.defines == Defines{{"RUNNER", ""}});
}

TEST_CASE("context for: without a database entry, the config, then inference") {
  const auto database = sgemm_database();
  const auto contexts = configured("[[compile.paths]]\nglob = \"dev/*\"\ndefines = [\"DEV\"]\n");
  const SourceFiles files{{"tools/t.cu", "#include <mylib/a.h>\n"}, {"include/mylib/a.h", ""}};
  const RevisionSources tree(files);
  ContextSources sources{"/repo", no_folders, &database, &contexts, &tree};

  const auto dev = context_for("dev/k.cu", sources, includers_of({}));
  CHECK(dev.origin == ContextOrigin::config);
  CHECK(dev.unit == "dev/k.cu");
  CHECK(dev.defines == Defines{{"DEV", ""}});

  const auto tool = context_for("tools/t.cu", sources, includers_of({{"tools/t.cu", {"tools/none.cu"}}}));
  CHECK(tool.origin == ContextOrigin::inferred);
  CHECK(tool.include_dirs == Strings{"include"});
}

TEST_CASE("context for: a database entry wins over the config, which does not add to it") {
  const auto database = sgemm_database();
  const auto contexts = configured("[compile]\ndefines = [\"FROM_CONFIG\"]\n");
  ContextSources sources{"/repo", no_folders, &database, &contexts, nullptr};
  const auto context = context_for("sgemm.cu", sources, {});
  CHECK(context.origin == ContextOrigin::compile_database);
  CHECK(context.defines == Defines{{"MAIN", ""}});
}

TEST_CASE("context for: with no source at all, an empty context named inferred") {
  ContextSources sources{"/repo", no_folders, nullptr, nullptr, nullptr};
  const auto context = context_for("k.cu", sources, {});
  CHECK(context.origin == ContextOrigin::inferred);
  CHECK(context.include_dirs.empty());
  CHECK(context.unit == "k.cu");
}
