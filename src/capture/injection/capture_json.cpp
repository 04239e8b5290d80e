// SPDX-License-Identifier: Apache-2.0
#include "capture/injection/capture_json.hpp"

#include <cstdio>

namespace kforecast::capture::injection {
namespace {

std::string kind_name(ParameterKind kind) {
  switch (kind) {
    case ParameterKind::pointer:
      return "pointer";
    case ParameterKind::pointer_inside:
      return "pointer_inside";
    case ParameterKind::value:
      break;
  }
  return "value";
}

template <class Items, class Write>
std::string json_list(const Items& items, Write write, std::string_view separator) {
  std::string text = "[";
  bool first = true;
  for (const auto& item : items) {
    if (!first) text += separator;
    first = false;
    text += write(item);
  }
  return text + "]";
}

std::string triple(const std::array<unsigned, 3>& v) {
  return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + "]";
}

std::string parameter_json(const ParameterRecord& p) {
  std::string text = "{\"index\": " + std::to_string(p.slot.ordinal) +
                     ", \"offset\": " + std::to_string(p.slot.offset) + ", \"size\": " + std::to_string(p.slot.size) +
                     ", \"kind\": " + json_quoted(kind_name(p.kind));
  if (p.kind == ParameterKind::pointer)
    text += ", \"allocation\": " + std::to_string(p.allocation) +
            ", \"offset_in_allocation\": " + std::to_string(p.offset_in_allocation);
  else
    text += ", \"hex\": " + json_quoted(hex(p.bytes));
  if (p.kind == ParameterKind::pointer_inside) text += ", \"reason\": " + json_quoted(p.reason);
  return text + "}";
}

}  // namespace

std::string json_quoted(std::string_view text) {
  std::string quoted = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        quoted += "\\\"";
        break;
      case '\\':
        quoted += "\\\\";
        break;
      case '\n':
        quoted += "\\n";
        break;
      case '\t':
        quoted += "\\t";
        break;
      case '\r':
        quoted += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
          quoted += escape;
        } else {
          quoted += c;
        }
    }
  }
  return quoted + "\"";
}

std::string capture_json(const LaunchRecord& record, const ProgramFacts& program) {
  std::string text = "{\n";
  text += "  \"kforecast_capture\": " + std::to_string(capture_format_version) + ",\n";
  text += "  \"kernel\": {\"mangled\": " + json_quoted(record.mangled) +
          ", \"demangled\": " + json_quoted(record.demangled) + ", \"module\": " + json_quoted(record.module) + "},\n";
  text += "  \"program\": " + json_list(program.argv, json_quoted, ", ") + ",\n";
  text += "  \"device\": {\"name\": " + json_quoted(program.device_name) +
          ", \"compute_capability\": " + json_quoted(program.compute_capability) + "},\n";
  text += "  \"launch\": {\"grid\": " + triple(record.shape.grid) + ", \"block\": " + triple(record.shape.block) +
          ", \"shared_bytes\": " + std::to_string(record.shape.shared_bytes) + "},\n";
  text += "  \"ordinal\": " + std::to_string(record.ordinal) + ",\n";
  // null, not [], where no module gave the layout: a reader must not take it for a kernel without parameters.
  text += "  \"parameters\": " +
          (record.layout_known ? json_list(record.parameters, parameter_json, ",\n    ") : std::string("null")) + ",\n";
  std::size_t id = 0;
  text += "  \"allocations\": " +
          json_list(
              record.allocations,
              [&](const AllocationRecord& a) {
                std::string item =
                    "{\"id\": " + std::to_string(id++) + ", \"bytes\": " + std::to_string(a.allocation.bytes) +
                    ", \"region_offset\": " + std::to_string(a.region_offset) +
                    ", \"region_bytes\": " + std::to_string(a.region_bytes) +
                    ", \"contents\": " + json_quoted(a.contents == Contents::captured ? "captured" : "synthetic");
                if (a.contents == Contents::captured) item += ", \"blob\": " + json_quoted(a.blob);
                return item + "}";
              },
              ",\n    ") +
          ",\n";
  text += "  \"notes\": " + json_list(record.notes, json_quoted, ",\n    ") + "\n";
  return text + "}\n";
}

}  // namespace kforecast::capture::injection
