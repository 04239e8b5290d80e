// SPDX-License-Identifier: Apache-2.0
#include "kernels/excerpt.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kforecast::kernels {
namespace {

// A piece's text, with the qualified name of a function that lives in a namespace or class,
// which the excerpt's missing `namespace ns {` lines would otherwise lose.
std::string piece_text(const std::string& source, const ReachedPiece& piece) {
  std::string text = source.substr(piece.span.begin, piece.span.end - piece.span.begin);
  const bool function = piece.kind == ReachedPiece::Kind::kernel || piece.kind == ReachedPiece::Kind::device_function;
  if (function && piece.name.find("::") != std::string::npos) text = fmt::format("// {}\n{}", piece.name, text);
  return text;
}

// Files in the order the preprocessor first finishes them: each header after the headers it
// includes, in include order, and `path` last — so a type appears before the code that uses it.
std::vector<std::string> reading_order(const RevisionSources& sources, const std::string& path) {
  std::vector<std::string> order, visiting;
  auto visit = [&](auto& self, const std::string& file) -> void {
    if (std::ranges::find(visiting, file) != visiting.end()) return;  // include cycles end here
    visiting.push_back(file);
    for (const auto& header : sources.includes(file)) self(self, header);
    order.push_back(file);
  };
  visit(visit, path);
  return order;
}

}  // namespace

Excerpt kernel_excerpt(const RevisionSources& sources, const std::string& path, std::size_t function_index,
                       std::size_t max_bytes) {
  std::vector<ReachedPiece> pieces = sources.reach(path, function_index);
  const std::vector<std::string> order = reading_order(sources, path);
  auto rank = [&](const std::string& file) { return std::ranges::find(order, file) - order.begin(); };
  std::ranges::sort(pieces, [&](const ReachedPiece& a, const ReachedPiece& b) {
    const auto rank_a = rank(a.file), rank_b = rank(b.file);
    if (rank_a != rank_b) return rank_a < rank_b;
    return a.span.begin < b.span.begin;
  });
  // A forward declaration and its definition, or one function both reached and a kernel, are
  // the same bytes at most once.
  pieces.erase(std::unique(pieces.begin(), pieces.end(),
                           [](const auto& a, const auto& b) { return a.file == b.file && a.span == b.span; }),
               pieces.end());

  Excerpt excerpt;
  const std::string* current_file = nullptr;
  for (const ReachedPiece& piece : pieces) {
    std::string block;
    if (!current_file || *current_file != piece.file) {
      block += fmt::format("{}// file: {}\n", current_file ? "\n" : "", piece.file);
      current_file = &piece.file;
    }
    block += piece_text(sources.files().at(piece.file), piece);
    block += '\n';
    if (excerpt.text.size() + block.size() > max_bytes) {
      const std::size_t room = max_bytes > excerpt.text.size() ? max_bytes - excerpt.text.size() : 0;
      const std::size_t line_end = block.rfind('\n', room);
      if (line_end != std::string::npos) excerpt.text.append(block, 0, line_end + 1);
      excerpt.text += fmt::format("// ... cut: the excerpt is longer than {} bytes\n", max_bytes);
      excerpt.truncated = true;
      break;
    }
    excerpt.text += block;
  }
  return excerpt;
}

}  // namespace kforecast::kernels
