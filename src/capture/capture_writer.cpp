// SPDX-License-Identifier: Apache-2.0
// Standard library only (capture_file.hpp says why).
#include <string_view>

#include "capture/capture_file.hpp"

namespace kforecast::capture {
namespace {

constexpr char hex_digits[] = "0123456789abcdef";

void append_string(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      out += "\\u00";
      out += hex_digits[byte >> 4];
      out += hex_digits[byte & 0xF];
    } else {
      out += c;
    }
  }
  out += '"';
}

void append_hex(std::string& out, const std::vector<std::byte>& bytes) {
  out += '"';
  for (const std::byte b : bytes) {
    const auto byte = static_cast<unsigned>(b);
    out += hex_digits[byte >> 4];
    out += hex_digits[byte & 0xF];
  }
  out += '"';
}

void append_strings(std::string& out, const std::vector<std::string>& strings) {
  out += '[';
  for (std::size_t i = 0; i < strings.size(); ++i) {
    if (i) out += ", ";
    append_string(out, strings[i]);
  }
  out += ']';
}

void append_triple(std::string& out, const std::array<std::uint32_t, 3>& triple) {
  out += '[' + std::to_string(triple[0]) + ", " + std::to_string(triple[1]) + ", " + std::to_string(triple[2]) + ']';
}

std::string_view kind_name(ParameterKind kind) {
  switch (kind) {
    case ParameterKind::pointer:
      return "pointer";
    case ParameterKind::value:
      return "value";
    case ParameterKind::pointer_inside:
      return "pointer_inside";
  }
  return "value";
}

}  // namespace

std::string capture_json(const Capture& capture) {
  std::string out = "{\n  \"kforecast_capture\": " + std::to_string(capture_format_version) + ",\n  \"kernel\": {\"mangled\": ";
  append_string(out, capture.kernel.mangled);
  out += ", \"demangled\": ";
  append_string(out, capture.kernel.demangled);
  out += ", \"module\": ";
  append_string(out, capture.kernel.module);
  out += "},\n  \"program\": ";
  append_strings(out, capture.program);
  out += ",\n  \"device\": {\"name\": ";
  append_string(out, capture.device_name);
  out += ", \"compute_capability\": ";
  append_string(out, capture.compute_capability);
  out += "},\n  \"launch\": {\"grid\": ";
  append_triple(out, capture.grid);
  out += ", \"block\": ";
  append_triple(out, capture.block);
  out += ", \"shared_bytes\": " + std::to_string(capture.shared_bytes) + "},\n";
  out += "  \"ordinal\": " + std::to_string(capture.ordinal) + ",\n  \"parameters\": ";
  out += capture.layout_unknown ? "null" : "[";
  for (std::size_t i = 0; i < capture.parameters.size(); ++i) {
    const auto& p = capture.parameters[i];
    out += i ? ",\n    " : "\n    ";
    out += "{\"index\": " + std::to_string(p.index) + ", \"offset\": " + std::to_string(p.offset) +
           ", \"size\": " + std::to_string(p.size) + ", \"kind\": \"";
    out += kind_name(p.kind);
    out += '"';
    if (p.kind == ParameterKind::pointer) {
      out += ", \"allocation\": " + std::to_string(p.allocation) +
             ", \"offset_in_allocation\": " + std::to_string(p.offset_in_allocation);
    } else if (p.kind == ParameterKind::value || !p.bytes.empty()) {
      out += ", \"hex\": ";
      append_hex(out, p.bytes);
    }
    if (p.kind == ParameterKind::pointer_inside) {
      out += ", \"reason\": ";
      append_string(out, p.reason);
    }
    out += '}';
  }
  if (!capture.layout_unknown) out += capture.parameters.empty() ? "]" : "\n  ]";
  out += ",\n";
  out += "  \"allocations\": [";
  for (std::size_t i = 0; i < capture.allocations.size(); ++i) {
    const auto& a = capture.allocations[i];
    out += i ? ",\n    " : "\n    ";
    out += "{\"id\": " + std::to_string(a.id) + ", \"bytes\": " + std::to_string(a.bytes) +
           ", \"region_offset\": " + std::to_string(a.region_offset) +
           ", \"region_bytes\": " + std::to_string(a.region_bytes) + ", \"contents\": ";
    out += a.contents == Contents::captured ? "\"captured\"" : "\"synthetic\"";
    if (a.contents == Contents::captured) {
      out += ", \"blob\": ";
      append_string(out, a.blob);
    }
    out += '}';
  }
  out += capture.allocations.empty() ? "],\n" : "\n  ],\n";
  out += "  \"notes\": ";
  append_strings(out, capture.notes);
  out += "\n}\n";
  return out;
}

std::string kernel_folder_name(const std::string& mangled) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : mangled) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  std::string name(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) name[static_cast<std::size_t>(i)] = hex_digits[hash & 0xF];
  return name;
}

}  // namespace kforecast::capture
