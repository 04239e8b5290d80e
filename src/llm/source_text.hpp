// SPDX-License-Identifier: Apache-2.0
#pragma once

// Kernel source as untrusted prompt input: comments removed before sending (they carry no
// performance information and are the easiest place to address a model), and text that looks
// addressed to a model found, so the report can say a forecast may have been steered.

#include <string>
#include <string_view>
#include <vector>

namespace kforecast::llm {

// C/C++ comments replaced (a block comment by its newlines, so line numbers hold); string and
// character literals are kept intact, including "//" inside them.
std::string strip_comments(std::string_view source);

// Phrases in `text` that address a language model: instruction overrides ("ignore previous
// instructions"), chat role markers ("<|im_start|>", "[INST]", "### System:"), tool-call syntax.
// Each found phrase once, as a short quote for the report.
std::vector<std::string> steering_markers(std::string_view text);

}  // namespace kforecast::llm
