// SPDX-License-Identifier: Apache-2.0
#include "cuda/compile_wire.hpp"

#include <charconv>
#include <cstring>
#include <optional>
#include <utility>

#include <fmt/format.h>

namespace kforecast::cuda {
namespace {

constexpr std::string_view request_magic = "kforecast-compile-request 1\n";
constexpr std::string_view answer_magic = "kforecast-compile-answer 1\n";

class Writer {
 public:
  explicit Writer(std::string_view magic) : m_bytes(magic) {}
  Writer& add(std::string_view tag, std::string_view value) {
    m_bytes += fmt::format("{} {}\n", tag, value.size());
    m_bytes += value;
    m_bytes += '\n';
    return *this;
  }
  std::string take() { return std::move(m_bytes); }

 private:
  std::string m_bytes;
};

struct Record {
  std::string_view tag;
  std::string_view value;
};

Result<std::vector<Record>> records(std::string_view bytes, std::string_view magic, std::string_view what) {
  const auto bad = [&](const std::string& why) {
    return fail(ExitCode::could_not_run, fmt::format("the compiler child's {} is malformed: {}", what, why));
  };
  if (!bytes.starts_with(magic)) return bad("it does not start with its header");
  bytes.remove_prefix(magic.size());
  std::vector<Record> found;
  while (!bytes.empty()) {
    const auto space = bytes.find(' ');
    const auto newline = bytes.find('\n');
    if (space == std::string_view::npos || newline == std::string_view::npos || space > newline)
      return bad("a record has no 'TAG LENGTH' line");
    const std::string_view tag = bytes.substr(0, space);
    const std::string_view digits = bytes.substr(space + 1, newline - space - 1);
    std::size_t length = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), length);
    if (error != std::errc() || end != digits.data() + digits.size() || digits.empty())
      return bad(fmt::format("record '{}' has no valid length", tag.substr(0, 40)));
    bytes.remove_prefix(newline + 1);
    if (length >= bytes.size() || bytes[length] != '\n')
      return bad(fmt::format("record '{}' is cut short", tag.substr(0, 40)));
    found.push_back({tag, bytes.substr(0, length)});
    bytes.remove_prefix(length + 1);
  }
  return found;
}

std::optional<int> small_number(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::string encode_request(const CompileRequest& request) {
  Writer writer(request_magic);
  writer.add("source", request.source).add("file_name", request.file_name).add("arch", request.arch);
  for (const auto& directory : request.include_dirs) writer.add("include_dir", directory);
  for (const auto& [name, value] : request.defines) writer.add("define_name", name).add("define_value", value);
  for (const auto& option : request.options) writer.add("option", option);
  for (const auto& expression : request.name_expressions) writer.add("name_expression", expression);
  for (const auto& header : request.headers)
    writer.add("header_name", header.include_name).add("header_text", header.text);
  return writer.take();
}

Result<CompileRequest> decode_request(std::string_view bytes) {
  auto found = records(bytes, request_magic, "request");
  if (!found) return std::unexpected(found.error());
  CompileRequest request;
  request.file_name.clear();
  request.arch.clear();
  std::optional<std::string> define_name, header_name;
  for (const auto& [tag, value] : *found) {
    const std::string text(value);
    if (tag == "source")
      request.source = text;
    else if (tag == "file_name")
      request.file_name = text;
    else if (tag == "arch")
      request.arch = text;
    else if (tag == "include_dir")
      request.include_dirs.push_back(text);
    else if (tag == "option")
      request.options.push_back(text);
    else if (tag == "name_expression")
      request.name_expressions.push_back(text);
    else if (tag == "define_name")
      define_name = text;
    else if (tag == "define_value" && define_name)
      request.defines.emplace_back(*std::exchange(define_name, std::nullopt), text);
    else if (tag == "header_name")
      header_name = text;
    else if (tag == "header_text" && header_name)
      request.headers.push_back({*std::exchange(header_name, std::nullopt), text});
    else
      return fail(ExitCode::could_not_run,
                  fmt::format("the compile request has an unexpected record '{}'", tag.substr(0, 40)));
  }
  if (define_name || header_name)
    return fail(ExitCode::could_not_run, "the compile request ends inside a pair of records");
  return request;
}

std::string encode_answer(const CompileAnswer& answer) {
  Writer writer(answer_magic);
  if (!answer.output) {
    writer.add("error_exit_code", std::to_string(static_cast<int>(answer.output.error().exit_code)));
    writer.add("error", answer.output.error().message);
    return writer.take();
  }
  const CompileOutput& output = *answer.output;
  writer.add("ptx", output.ptx);
  writer.add("cubin", std::string_view(reinterpret_cast<const char*>(output.cubin.data()), output.cubin.size()));
  writer.add("log", output.log);
  for (const auto& name : output.lowered_names) writer.add("expression", name.expression).add("lowered", name.lowered);
  for (const auto& option : output.options) writer.add("option", option);
  return writer.take();
}

Result<CompileAnswer> decode_answer(std::string_view bytes) {
  auto found = records(bytes, answer_magic, "answer");
  if (!found) return std::unexpected(found.error());
  CompileOutput output;
  std::optional<Error> error;
  std::optional<std::string> expression;
  for (const auto& [tag, value] : *found) {
    const std::string text(value);
    if (tag == "error_exit_code") {
      const auto code = small_number(value);
      if (!code || *code < 1 || *code > 3)
        return fail(ExitCode::could_not_run, "the compiler child gave an invalid exit code");
      error = Error{"", static_cast<ExitCode>(*code)};
    } else if (tag == "error" && error)
      error->message = text;
    else if (tag == "ptx")
      output.ptx = text;
    else if (tag == "cubin") {
      output.cubin.resize(value.size());
      if (!value.empty()) std::memcpy(output.cubin.data(), value.data(), value.size());
    } else if (tag == "log")
      output.log = text;
    else if (tag == "expression")
      expression = text;
    else if (tag == "lowered" && expression)
      output.lowered_names.push_back({*std::exchange(expression, std::nullopt), text});
    else if (tag == "option")
      output.options.push_back(text);
    else
      return fail(ExitCode::could_not_run,
                  fmt::format("the compiler child's answer has an unexpected record '{}'", tag.substr(0, 40)));
  }
  if (error) return CompileAnswer{std::unexpected(std::move(*error))};
  if (expression) return fail(ExitCode::could_not_run, "the compiler child's answer ends inside a pair of records");
  return CompileAnswer{std::move(output)};
}

}  // namespace kforecast::cuda
