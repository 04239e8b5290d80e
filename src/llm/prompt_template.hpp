// SPDX-License-Identifier: Apache-2.0
#pragma once

// `{{name}}` substitution for the prompt templates. Deliberately tiny: no conditionals, no
// escapes. A name the template uses but the caller did not set, or a malformed placeholder, is an
// error naming the template and the name, so an overridden prompt with a typo fails loudly rather
// than sending "{{kernal_name}}" to the model. Values are inserted verbatim and never rescanned,
// so kernel text containing "{{x}}" cannot inject a placeholder.

#include <map>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace kforecast::llm {

using TemplateValues = std::map<std::string, std::string, std::less<>>;

// `template_name` is used in messages ("prompts/user.txt").
Result<std::string> render_template(std::string_view text, const TemplateValues& values,
                                    std::string_view template_name);

}  // namespace kforecast::llm
