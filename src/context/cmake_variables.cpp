// SPDX-License-Identifier: Apache-2.0
#include "context/cmake_variables.hpp"

#include <algorithm>

#include "context/cmake_values.hpp"
#include "context/found_define.hpp"

namespace kforecast::context {

// The value of a variable the reader cannot work out: an architecture where its name says it
// holds one and there is a target, else not known.
std::string VariableCommands::computed(const std::string& name) const {
  return m_arch && names_an_architecture(name) ? arch_reference(name) : unknown_reference(name);
}

void VariableCommands::set_variable(Variables& variables, const std::string& name, std::string value) const {
  if (value.size() > m_max_value_bytes) value = unknown_reference(name);
  variables[name] = std::move(value);
}

void VariableCommands::set(const std::vector<std::string>& words, Variables& variables) const {
  if (words.empty()) return;
  const auto cache = std::ranges::find(words, "CACHE");
  if (std::ranges::find(words, "PARENT_SCOPE") != words.end()) return;
  if (cache != words.end()) {
    const bool force = std::ranges::find(words, "FORCE") != words.end();
    if (force || !variables.contains(words[0]))
      set_variable(variables, words[0], join_list(std::vector(words.begin() + 1, cache)));
    return;
  }
  if (words.size() == 1)
    variables.erase(words[0]);
  else
    set_variable(variables, words[0], join_list(std::vector(words.begin() + 1, words.end())));
}

void VariableCommands::list(const std::vector<std::string>& words, Variables& variables) const {
  if (words.size() < 2) return;
  const std::string& sub = words[0];
  const std::string& list = words[1];
  auto items = variables.contains(list) ? list_items(variables.at(list)) : std::vector<std::string>{};
  const std::vector<std::string> given(words.begin() + 2, words.end());
  if (sub == "APPEND") {
    items.insert(items.end(), given.begin(), given.end());
  } else if (sub == "PREPEND") {
    items.insert(items.begin(), given.begin(), given.end());
  } else if (sub == "REMOVE_ITEM") {
    std::erase_if(items, [&given](const std::string& item) { return std::ranges::find(given, item) != given.end(); });
  } else if (sub == "SORT" || sub == "REVERSE" || sub == "REMOVE_DUPLICATES") {
    return;  // order and repeats do not change which defines a list gives
  } else {
    if (auto output = computed_variable("list", words)) variables[*output] = computed(*output);
    return;
  }
  set_variable(variables, list, join_list(items));
}

void VariableCommands::string(const std::vector<std::string>& words, Variables& variables) const {
  if (words.size() < 2) return;
  const std::string& sub = words[0];
  if (sub != "APPEND" && sub != "PREPEND") {
    if (auto output = computed_variable("string", words)) variables[*output] = computed(*output);
    return;
  }
  std::string joined;
  for (std::size_t i = 2; i < words.size(); ++i) joined += words[i];
  const std::string old = variables.contains(words[1]) ? variables.at(words[1]) : std::string();
  set_variable(variables, words[1], sub == "APPEND" ? old + joined : joined + old);
}

}  // namespace kforecast::context
