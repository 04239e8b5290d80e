// SPDX-License-Identifier: Apache-2.0
#include "capture/capture_reader.hpp"

#include <fstream>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"

namespace kforecast::capture {
namespace {

namespace fs = std::filesystem;

// Thrown inside the reader only, caught once by parse_capture_json: the fields then read as a
// list rather than as a ladder of checks.
struct FieldError {
  std::string message;  // "parameters[1].hex: expected 8 hex digits"
};

[[noreturn]] void malformed(const std::string& path, std::string_view what) {
  throw FieldError{fmt::format("{}: {}", path, what)};
}

std::string child(std::string_view path, std::string_view key) {
  return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

const Json& field(const Json& parent, std::string_view key, std::string_view path) {
  const Json* value = json_document::find(parent, key);
  if (value == nullptr) malformed(child(path, key), "missing");
  return *value;
}

bool has(const Json& parent, std::string_view key) { return json_document::find(parent, key) != nullptr; }

std::uint64_t unsigned_in(const Json& value, const std::string& path, std::uint64_t low, std::uint64_t high) {
  if (!value.is_number_unsigned()) malformed(path, "expected a non-negative integer");
  const auto number = value.get<std::uint64_t>();
  if (number < low || number > high) malformed(path, fmt::format("{} is outside [{}, {}]", number, low, high));
  return number;
}

std::uint64_t unsigned_at(const Json& parent, std::string_view key, std::string_view path, std::uint64_t low,
                          std::uint64_t high) {
  return unsigned_in(field(parent, key, path), child(path, key), low, high);
}

std::string string_in(const Json& value, const std::string& path, std::size_t max_bytes) {
  if (!value.is_string()) malformed(path, "expected a string");
  const auto& text = value.get_ref<const std::string&>();
  if (text.size() > max_bytes) malformed(path, fmt::format("longer than {} bytes", max_bytes));
  return text;
}

std::string string_at(const Json& parent, std::string_view key, std::string_view path, std::size_t max_bytes) {
  return string_in(field(parent, key, path), child(path, key), max_bytes);
}

const Json& object_at(const Json& parent, std::string_view key, std::string_view path) {
  const Json& value = field(parent, key, path);
  if (!value.is_object()) malformed(child(path, key), "expected an object");
  return value;
}

const Json& array_at(const Json& parent, std::string_view key, std::string_view path, std::size_t max_entries) {
  const Json& value = field(parent, key, path);
  if (!value.is_array()) malformed(child(path, key), "expected an array");
  if (value.size() > max_entries) malformed(child(path, key), fmt::format("more than {} entries", max_entries));
  return value;
}

const Json& object_in(const Json& value, const std::string& path) {
  if (!value.is_object()) malformed(path, "expected an object");
  return value;  // NOLINT(bugprone-return-const-ref-from-parameter): part of a document that outlives the call
}

std::vector<std::string> strings_at(const Json& parent, std::string_view key, std::string_view path) {
  std::vector<std::string> strings;
  std::size_t i = 0;
  for (const Json& entry : array_at(parent, key, path, 4096))
    strings.push_back(string_in(entry, fmt::format("{}[{}]", child(path, key), i++), 4096));
  return strings;
}

std::array<std::uint32_t, 3> triple_at(const Json& parent, std::string_view key, std::string_view path,
                                       const std::array<std::uint64_t, 3>& high) {
  const std::string where = child(path, key);
  const Json& values = array_at(parent, key, path, 3);
  if (values.size() != 3) malformed(where, "expected three integers [x, y, z]");
  std::array<std::uint32_t, 3> triple{};
  std::size_t i = 0;
  for (const Json& value : values) {
    triple[i] = static_cast<std::uint32_t>(unsigned_in(value, fmt::format("{}[{}]", where, i), 1, high[i]));
    ++i;
  }
  return triple;
}

std::vector<std::byte> hex_at(const Json& parent, std::string_view key, std::string_view path, std::uint32_t size) {
  const std::string where = child(path, key);
  const std::string text = string_in(field(parent, key, path), where, 2 * std::size_t{max_parameter_bytes});
  if (text.size() != 2 * std::size_t{size})
    malformed(where, fmt::format("expected {} hex digits (the parameter's {} bytes), found {}", 2 * size, size,
                                 text.size()));
  const auto digit = [&](char c) -> unsigned {
    if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<unsigned>(c - 'A' + 10);
    malformed(where, fmt::format("'{}' is not a hex digit", c));
  };
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<std::byte>(digit(text[2 * i]) << 4 | digit(text[2 * i + 1]));
  return bytes;
}

// A blob path is a relative path of plain names below the capture file's folder.
void check_blob_path(const std::string& blob, const std::string& where) {
  if (blob.empty()) malformed(where, "empty");
  if (blob.front() == '/') malformed(where, fmt::format("'{}' is absolute; blobs are relative to the capture's folder", blob));
  std::size_t start = 0;
  while (start <= blob.size()) {
    const std::size_t end = std::min(blob.find('/', start), blob.size());
    const std::string_view part = std::string_view(blob).substr(start, end - start);
    if (part.empty() || part == "." || part == "..")
      malformed(where, fmt::format("'{}' leaves or names the capture's folder; only plain names below it are allowed", blob));
    for (const char c : part)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
        malformed(where, fmt::format("'{}' has a character other than letters, digits, '.', '_', '-' and '/'", blob));
    start = end + 1;
  }
}

CapturedParameter read_parameter(const Json& entry, const std::string& path, std::uint32_t expected_index) {
  CapturedParameter parameter;
  parameter.index = static_cast<std::uint32_t>(unsigned_at(entry, "index", path, 0, max_parameters));
  if (parameter.index != expected_index)
    malformed(child(path, "index"), fmt::format("{} where {} was expected (parameters in order, from 0)", parameter.index,
                                                expected_index));
  parameter.offset = static_cast<std::uint32_t>(unsigned_at(entry, "offset", path, 0, max_parameter_bytes - 1));
  parameter.size = static_cast<std::uint32_t>(unsigned_at(entry, "size", path, 1, max_parameter_bytes));
  const std::string kind = string_at(entry, "kind", path, 32);
  if (kind == "pointer") {
    parameter.kind = ParameterKind::pointer;
    if (parameter.size != 8) malformed(child(path, "size"), fmt::format("a pointer has 8 bytes, not {}", parameter.size));
    parameter.allocation = static_cast<std::int64_t>(unsigned_at(entry, "allocation", path, 0, max_allocation_bytes));
    parameter.offset_in_allocation = unsigned_at(entry, "offset_in_allocation", path, 0, max_allocation_bytes);
  } else if (kind == "value") {
    parameter.kind = ParameterKind::value;
    parameter.bytes = hex_at(entry, "hex", path, parameter.size);
  } else if (kind == "pointer_inside") {
    parameter.kind = ParameterKind::pointer_inside;
    if (has(entry, "hex")) parameter.bytes = hex_at(entry, "hex", path, parameter.size);
    parameter.reason = has(entry, "reason") ? string_at(entry, "reason", path, 4096) : "";
  } else {
    malformed(child(path, "kind"), fmt::format("'{}' is not pointer, value or pointer_inside", kind));
  }
  return parameter;
}

CapturedAllocation read_allocation(const Json& entry, const std::string& path) {
  CapturedAllocation allocation;
  allocation.id = static_cast<std::int64_t>(unsigned_at(entry, "id", path, 0, max_allocation_bytes));
  allocation.bytes = unsigned_at(entry, "bytes", path, 1, max_allocation_bytes);
  allocation.region_offset = unsigned_at(entry, "region_offset", path, 0, allocation.bytes - 1);
  allocation.region_bytes = unsigned_at(entry, "region_bytes", path, 1, allocation.bytes - allocation.region_offset);
  const std::string contents = string_at(entry, "contents", path, 32);
  if (contents == "captured") {
    allocation.contents = Contents::captured;
    allocation.blob = string_at(entry, "blob", path, 512);
    check_blob_path(allocation.blob, child(path, "blob"));
  } else if (contents == "synthetic") {
    allocation.contents = Contents::synthetic;
    if (has(entry, "blob"))
      malformed(child(path, "blob"), "a synthetic allocation has no blob (contents \"captured\" names one)");
  } else {
    malformed(child(path, "contents"), fmt::format("'{}' is not captured or synthetic", contents));
  }
  return allocation;
}

Capture read_capture(const Json& root) {
  Capture capture;
  const std::uint64_t version = unsigned_at(root, "kforecast_capture", "", 0, UINT32_MAX);
  if (version != capture_format_version)
    malformed("kforecast_capture",
              fmt::format("version {}; this kforecast reads version {}: capture again with `kforecast capture`", version,
                          capture_format_version));
  const Json& kernel = object_at(root, "kernel", "");
  capture.kernel.mangled = string_at(kernel, "mangled", "kernel", 4096);
  if (capture.kernel.mangled.empty()) malformed("kernel.mangled", "empty");
  capture.kernel.demangled = string_at(kernel, "demangled", "kernel", 16384);
  if (has(kernel, "module")) capture.kernel.module = string_at(kernel, "module", "kernel", 128);
  if (has(root, "program")) capture.program = strings_at(root, "program", "");
  if (has(root, "device")) {
    const Json& device = object_at(root, "device", "");
    if (has(device, "name")) capture.device_name = string_at(device, "name", "device", 256);
    if (has(device, "compute_capability"))
      capture.compute_capability = string_at(device, "compute_capability", "device", 16);
  }
  const Json& launch = object_at(root, "launch", "");
  capture.grid = triple_at(launch, "grid", "launch", {0x7FFFFFFF, 65535, 65535});
  capture.block = triple_at(launch, "block", "launch", {1024, 1024, 64});
  if (std::uint64_t{capture.block[0]} * capture.block[1] * capture.block[2] > 1024)
    malformed("launch.block", "more than 1024 threads in a block");
  capture.shared_bytes = static_cast<std::uint32_t>(unsigned_at(launch, "shared_bytes", "launch", 0, 1 << 20));
  capture.ordinal = unsigned_at(root, "ordinal", "", 0, 1'000'000);

  std::size_t i = 0;
  for (const Json& value : array_at(root, "allocations", "", max_allocations)) {
    const std::string path = fmt::format("allocations[{}]", i++);
    capture.allocations.push_back(read_allocation(object_in(value, path), path));
  }
  std::set<std::int64_t> ids;
  for (std::size_t a = 0; a < capture.allocations.size(); ++a)
    if (!ids.insert(capture.allocations[a].id).second)
      malformed(fmt::format("allocations[{}].id", a), fmt::format("{} is used twice", capture.allocations[a].id));

  i = 0;
  std::uint32_t end_of_previous = 0;
  if (const Json* parameters = json_document::find(root, "parameters"); parameters != nullptr && parameters->is_null()) {
    capture.layout_unknown = true;
    return capture;
  }
  for (const Json& value : array_at(root, "parameters", "", max_parameters)) {
    const std::string path = fmt::format("parameters[{}]", i);
    auto parameter = read_parameter(object_in(value, path), path, static_cast<std::uint32_t>(i));
    ++i;
    if (parameter.offset < end_of_previous)
      malformed(path + ".offset", fmt::format("{} overlaps the previous parameter, which ends at {}", parameter.offset,
                                              end_of_previous));
    if (std::uint64_t{parameter.offset} + parameter.size > max_parameter_bytes)
      malformed(path + ".size", fmt::format("the parameters pass CUDA's {} bytes", max_parameter_bytes));
    end_of_previous = parameter.offset + parameter.size;
    if (parameter.kind == ParameterKind::pointer) {
      const auto found = std::ranges::find(capture.allocations, parameter.allocation, &CapturedAllocation::id);
      if (found == capture.allocations.end())
        malformed(path + ".allocation", fmt::format("{} is not the id of an entry of allocations", parameter.allocation));
      if (parameter.offset_in_allocation > found->bytes)
        malformed(path + ".offset_in_allocation",
                  fmt::format("{} is past the end of allocation {} ({} bytes)", parameter.offset_in_allocation,
                              found->id, found->bytes));
    }
    capture.parameters.push_back(std::move(parameter));
  }
  if (has(root, "notes")) capture.notes = strings_at(root, "notes", "");
  return capture;
}

std::string file_label(const fs::path& file) { return file.generic_string(); }

// The blob's path after following links, if it is a regular file inside the capture's folder.
Result<fs::path> confined_blob(const fs::path& capture_file, const CapturedAllocation& allocation, std::size_t index) {
  const std::string where = fmt::format("{}: allocations[{}].blob", file_label(capture_file), index);
  std::error_code ec;
  const fs::path folder = fs::canonical(capture_file.parent_path().empty() ? fs::path(".") : capture_file.parent_path(), ec);
  if (ec) return usage_error(fmt::format("{}: the capture's folder cannot be read: {}", where, ec.message()));
  const fs::path blob = folder / allocation.blob;
  if (!fs::exists(fs::symlink_status(blob, ec)))
    return usage_error(fmt::format("{}: '{}' does not exist (was the capture folder copied without its blobs/?)", where,
                                   allocation.blob));
  fs::path resolved = fs::canonical(blob, ec);
  if (ec) return usage_error(fmt::format("{}: '{}' cannot be read: {}", where, allocation.blob, ec.message()));
  const auto [folder_end, unused] = std::ranges::mismatch(folder, resolved);
  if (folder_end != folder.end())
    return usage_error(fmt::format("{}: '{}' leads outside the capture's folder (a symbolic link?)", where, allocation.blob));
  if (!fs::is_regular_file(resolved, ec))
    return usage_error(fmt::format("{}: '{}' is not a regular file", where, allocation.blob));
  const auto size = fs::file_size(resolved, ec);
  if (ec || size != allocation.region_bytes)
    return usage_error(fmt::format("{}: '{}' has {} bytes where region_bytes says {}", where, allocation.blob,
                                   ec ? 0 : size, allocation.region_bytes));
  return resolved;
}

}  // namespace

Result<Capture> parse_capture_json(std::string_view text, std::string_view file_name) {
  if (text.size() > max_capture_file_bytes)
    return usage_error(fmt::format("{}: larger than {} bytes; not a capture file", file_name, max_capture_file_bytes));
  const auto root = json_document::parse(text);
  if (!root)
    return usage_error(fmt::format("{}: not JSON ({}); capture again with `kforecast capture`", file_name, root.error()));
  try {
    if (!root->is_object()) malformed("(top level)", "expected an object");
    return read_capture(*root);
  } catch (const FieldError& error) {
    return usage_error(fmt::format("{}: {}", file_name, error.message));
  }
}

Result<Capture> read_capture_file(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return usage_error(fmt::format("{}: no such capture file", file_label(file)));
  if (fs::file_size(file, ec) > max_capture_file_bytes)
    return usage_error(fmt::format("{}: larger than {} bytes; not a capture file", file_label(file), max_capture_file_bytes));
  std::ifstream in(file, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto capture = parse_capture_json(text, file_label(file));
  if (!capture) return capture;
  for (std::size_t i = 0; i < capture->allocations.size(); ++i)
    if (capture->allocations[i].contents == Contents::captured)
      if (auto blob = confined_blob(file, capture->allocations[i], i); !blob) return std::unexpected(blob.error());
  return capture;
}

Result<std::vector<std::byte>> read_blob(const fs::path& capture_file, const CapturedAllocation& allocation,
                                         std::size_t index) {
  auto blob = confined_blob(capture_file, allocation, index);
  if (!blob) return std::unexpected(blob.error());
  std::ifstream in(*blob, std::ios::binary);
  std::vector<std::byte> bytes(allocation.region_bytes);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (static_cast<std::uint64_t>(in.gcount()) != allocation.region_bytes)
    return usage_error(fmt::format("{}: blob '{}' could not be read in full", file_label(capture_file), allocation.blob));
  return bytes;
}

}  // namespace kforecast::capture
