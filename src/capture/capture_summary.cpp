// SPDX-License-Identifier: Apache-2.0
#include "capture/capture_summary.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "base/json_document.hpp"
#include "base/text_file.hpp"

namespace kforecast::capture {
namespace {

namespace fs = std::filesystem;

std::string mebibytes(std::uint64_t bytes) {
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

// Reads one capture file into the summary; a message where it is not one.
struct Tally {
  std::set<std::string> shapes;  // the file names' shape part, "<folder>/<shape>"
  std::size_t launches = 0;
};

std::string add_capture(CaptureSummary& summary, std::map<std::string, Tally>& kernels, const fs::path& file,
                        const std::string& name) {
  auto text = read_text_file(file, "capture file");
  if (!text) return fmt::format("not JSON ({})", text.error().message);
  const auto document = json_document::parse(*text);
  if (!document) return fmt::format("not JSON ({})", document.error());
  const Json& root = *document;
  const auto version = json_document::int64_at(root, "kforecast_capture");
  if (!version) return "no kforecast_capture version";
  if (*version != 1) return fmt::format("capture format {} (this kforecast reads 1)", *version);
  const Json* kernel_object = json_document::object_at(root, "kernel");
  const std::string* kernel = kernel_object ? json_document::string_at(*kernel_object, "demangled") : nullptr;
  if (kernel == nullptr) return "no kernel.demangled";
  const std::string kernel_name(*kernel);
  ++summary.launches;
  Tally& tally = kernels[kernel_name];
  ++tally.launches;
  const std::string stem = file.stem().string();
  tally.shapes.insert(file.parent_path().filename().string() + "/" + stem.substr(0, stem.rfind('-')));
  const Json* parameters = json_document::find(root, "parameters");
  if (parameters == nullptr) return "no parameters";
  std::string reason;
  if (parameters->is_null()) {
    reason = "cannot replay: the parameter layout was not known at the launch";
  } else if (parameters->is_array()) {
    for (const Json& parameter : *parameters) {
      const std::string* kind = json_document::string_at(parameter, "kind");
      const auto index = json_document::int64_at(parameter, "index");
      if (kind != nullptr && *kind == "pointer_inside" && index) {
        reason = fmt::format("cannot replay: pointer inside argument {}", *index);
        break;
      }
    }
  } else {
    return "parameters is neither a list nor null";
  }
  if (!reason.empty()) summary.unreplayable.push_back({kernel_name, name, reason});
  if (const Json* allocations = json_document::array_at(root, "allocations")) {
    for (const Json& allocation : *allocations) {
      const std::string* contents = json_document::string_at(allocation, "contents");
      if (contents != nullptr && *contents == "synthetic")
        summary.synthetic.push_back(
            {kernel_name, name, json_document::uint64_at(allocation, "region_bytes").value_or(0)});
    }
  }
  return {};
}

}  // namespace

CaptureSummary summarize_captures(const fs::path& folder) {
  CaptureSummary summary;
  std::map<std::string, Tally> kernels;
  std::set<std::string> blobs;
  std::error_code error;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(folder, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error))
    if (it->is_regular_file(error)) files.push_back(it->path());
  if (error) summary.problems.push_back(fmt::format("{}: {}", folder.string(), error.message()));
  std::ranges::sort(files);
  for (const fs::path& file : files) {
    const std::string name = file.lexically_relative(folder).string();
    if (file.extension() == ".bin" && file.parent_path().filename() == "blobs") {
      if (blobs.insert(file.filename().string()).second) summary.bytes_kept += fs::file_size(file, error);
    } else if (file.extension() == ".json") {
      if (auto problem = add_capture(summary, kernels, file, name); !problem.empty())
        summary.problems.push_back(fmt::format("{}: {}", name, problem));
    }
  }
  for (auto& [kernel, tally] : kernels) summary.kernels.push_back({kernel, tally.shapes.size(), tally.launches});
  return summary;
}

std::string format_summary(const CaptureSummary& summary, const fs::path& folder) {
  if (summary.launches == 0 && summary.problems.empty())
    return fmt::format(
        "kforecast capture: no launch was captured in {}: the program launched no CUDA kernel, the "
        "--kernels glob matched none, or the library could not start (its 'kforecast capture:' line "
        "above says why)\n",
        folder.string());
  std::string text = fmt::format("kforecast capture: {} kernel{}, {} launch{} kept, {} of contents in {}\n",
                                 summary.kernels.size(), summary.kernels.size() == 1 ? "" : "s", summary.launches,
                                 summary.launches == 1 ? "" : "es", mebibytes(summary.bytes_kept), folder.string());
  for (const auto& kernel : summary.kernels)
    text += fmt::format("  {} shape{}, {} launch{}  {}\n", kernel.shapes, kernel.shapes == 1 ? "" : "s",
                        kernel.launches, kernel.launches == 1 ? "" : "es", kernel.kernel);
  if (!summary.synthetic.empty()) {
    std::uint64_t bytes = 0;
    for (const auto& region : summary.synthetic) bytes += region.bytes;
    text += fmt::format(
        "synthetic: {} region{} ({}) over the byte budget or unreadable; a replay fills them with "
        "random data (raise --bytes to keep them):\n",
        summary.synthetic.size(), summary.synthetic.size() == 1 ? "" : "s", mebibytes(bytes));
    for (const auto& region : summary.synthetic)
      text += fmt::format("  {} ({}): {}\n", region.file, mebibytes(region.bytes), region.kernel);
  }
  if (!summary.unreplayable.empty()) {
    text += fmt::format("cannot replay: {} launch{}:\n", summary.unreplayable.size(),
                        summary.unreplayable.size() == 1 ? "" : "es");
    for (const auto& launch : summary.unreplayable)
      text += fmt::format("  {}: {} ({})\n", launch.kernel, launch.reason, launch.file);
  }
  for (const auto& problem : summary.problems) text += fmt::format("unreadable: {}\n", problem);
  return text;
}

}  // namespace kforecast::capture
