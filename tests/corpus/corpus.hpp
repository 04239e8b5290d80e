// SPDX-License-Identifier: Apache-2.0
#pragma once

// The corpus of fixtures/corpus as its launch specs list it: every family folder, every
// [[kernel]] of its kforecast.toml with the source it names. Test helper: throws on anything
// malformed, so a broken spec fails the test that loads it.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <toml++/toml.h>

namespace kforecast::testing {

struct CorpusKernel {
  std::string family;
  std::string name;
  std::string file;                    // relative to the family folder
  std::string source;                  // the file's text
  std::vector<std::string> arg_names;  // keys of [kernel.args], sorted
  std::string args_text;               // [kernel.args] and sizes as TOML, to compare within a family
};

inline std::filesystem::path corpus_root() { return std::filesystem::path(KF_SOURCE_DIR) / "fixtures" / "corpus"; }

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `root`: a folder of families (scripts/corpus-generate.py writes one); default fixtures/corpus.
inline std::vector<CorpusKernel> load_corpus(const std::filesystem::path& root = corpus_root()) {
  std::vector<std::filesystem::path> families;
  for (const auto& entry : std::filesystem::directory_iterator(root))
    if (entry.is_directory()) families.push_back(entry.path());
  std::sort(families.begin(), families.end());
  std::vector<CorpusKernel> kernels;
  for (const auto& folder : families) {
    const auto spec_path = folder / "kforecast.toml";
    const toml::table spec = toml::parse_file(spec_path.string());
    const toml::array* list = spec["kernel"].as_array();
    if (!list) throw std::runtime_error(spec_path.string() + ": no [[kernel]]");
    for (const toml::node& node : *list) {
      const toml::table& entry = *node.as_table();
      CorpusKernel kernel;
      kernel.family = folder.filename().string();
      kernel.name = entry["name"].value_or(std::string());
      kernel.file = entry["file"].value_or(std::string());
      kernel.source = read_text(folder / kernel.file);
      const toml::table* args = entry["args"].as_table();
      if (!args) throw std::runtime_error(spec_path.string() + ": " + kernel.name + " has no [kernel.args]");
      for (const auto& [key, value] : *args) kernel.arg_names.emplace_back(key.str());
      std::sort(kernel.arg_names.begin(), kernel.arg_names.end());
      std::ostringstream text;
      text << *args << "\n" << *entry["sizes"].as_array();
      kernel.args_text = text.str();
      kernels.push_back(std::move(kernel));
    }
  }
  return kernels;
}

}  // namespace kforecast::testing
