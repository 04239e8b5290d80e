// SPDX-License-Identifier: Apache-2.0
// Scanner throughput: builds about 10 MB of CUDA source from the fixtures in fixtures/cuda (each
// copy in its own namespace, names varied, deterministic), scans it several times and prints the
// median rate against the stated target of 200 MB/s. Usage: scan_bench [MEGABYTES] [RUNS]

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernels/call_graph.hpp"
#include "kernels/scanner.hpp"

namespace {

constexpr double target_mb_per_s = 200.0;

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Real repositories do not repeat one file: every copy gets its own namespace and kernel names.
std::string vary(const std::string& text, std::size_t copy) {
  std::string out = fmt::format("namespace v{} {{\n", copy);
  const std::string suffix = fmt::format("_{}", copy);
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t found = text.find("_kernel", i);
    if (found == std::string::npos) {
      out.append(text, i, std::string::npos);
      break;
    }
    out.append(text, i, found + 7 - i);
    out += suffix;
    i = found + 7;
  }
  out += fmt::format("\n}}  // namespace v{}\n", copy);
  return out;
}

// FNV-1a over every field the scan returns, so a speed-up can show that it changed nothing.
std::uint64_t digest(const kforecast::kernels::ScannedSource& scanned) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto text = [&](std::string_view value) {
    for (const char c : value) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    h = (h ^ 0xff) * 0x100000001b3ull;  // a separator: "ab","c" differs from "a","bc"
  };
  auto number = [&](std::uint64_t value) { text(std::to_string(value)); };
  auto span = [&](const kforecast::kernels::Span& s) {
    for (const std::uint64_t v :
         {std::uint64_t{s.begin}, std::uint64_t{s.end}, std::uint64_t{s.first_line}, std::uint64_t{s.last_line}})
      number(v);
  };
  for (const auto& f : scanned.functions) {
    text(f.name), text(f.qualified_name), number(f.kind == kforecast::kernels::FunctionKind::global), number(f.host);
    text(f.template_parameters), number(f.extern_c), number(f.has_body), text(f.launch_bounds);
    for (const auto& p : f.parameters) text(p.type), text(p.name), text(p.default_value);
    span(f.signature), span(f.body), span(f.whole);
    for (const auto* names : {&f.referenced_identifiers, &f.calls})
      for (const auto& name : *names) text(name);
    for (const auto& name : f.instantiations) text(name);
    number(f.from_macro), text(f.macro);
  }
  for (const auto& m : scanned.macros) {
    text(m.name), number(m.function_like), text(m.body), span(m.span);
    for (const auto& p : m.parameters) text(p);
  }
  for (const auto& i : scanned.includes) text(i.path), number(i.angled), number(i.line);
  for (const auto& n : scanned.namespaces) text(n.qualified_name), span(n.span);
  for (const auto& i : scanned.instantiations) text(i.name), text(i.text), number(i.line);
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  const double megabytes = argc > 1 ? std::atof(argv[1]) : 10.0;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 9;
  std::vector<std::string> fixtures;
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(KF_SOURCE_DIR "/fixtures/cuda"))
    if (entry.path().extension() == ".cu" && entry.path().filename() != "broken.cu") paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  for (const auto& path : paths) fixtures.push_back(read_file(path));
  if (fixtures.empty()) {
    std::fprintf(stderr, "no fixtures in %s/fixtures/cuda\n", KF_SOURCE_DIR);
    return 2;
  }

  std::string source;
  const auto wanted = static_cast<std::size_t>(megabytes * 1e6);
  for (std::size_t copy = 0; source.size() < wanted; ++copy) source += vary(fixtures[copy % fixtures.size()], copy);

  // Wall time is what a user waits; CPU time of this thread is what the scanner costs when
  // other work shares the machine (CI runners often do).
  std::vector<double> seconds;
  std::vector<double> cpu_seconds;
  kforecast::kernels::ScannedSource scanned;
  for (int run = 0; run < runs; ++run) {
    scanned = {};
    const double cpu_start = thread_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    scanned = kforecast::kernels::scan_cuda_source(source);
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    cpu_seconds.push_back(thread_cpu_seconds() - cpu_start);
  }
  std::sort(seconds.begin(), seconds.end());
  std::sort(cpu_seconds.begin(), cpu_seconds.end());
  const double median = seconds[seconds.size() / 2];
  const double cpu_median = cpu_seconds[cpu_seconds.size() / 2];
  const double megabytes_scanned = static_cast<double>(source.size()) / 1e6;
  const double mb_per_s = megabytes_scanned / median;

  const auto graph_start = std::chrono::steady_clock::now();
  const kforecast::kernels::CallGraph graph(scanned);
  const double graph_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - graph_start).count();

  std::size_t kernels = 0;
  for (const auto& f : scanned.functions) kernels += f.kind == kforecast::kernels::FunctionKind::global;
  fmt::print("source: {:.2f} MB from {} fixtures, {} runs\n", static_cast<double>(source.size()) / 1e6, fixtures.size(),
             runs);
  fmt::print("scan: median {:.2f} ms, min {:.2f} ms, max {:.2f} ms\n", median * 1e3, seconds.front() * 1e3,
             seconds.back() * 1e3);
  fmt::print("throughput: {:.0f} MB/s (median wall); target {:.0f} MB/s; ratio {:.2f}x\n", mb_per_s, target_mb_per_s,
             mb_per_s / target_mb_per_s);
  fmt::print("throughput: {:.0f} MB/s (median thread CPU time, {:.2f} ms); ratio {:.2f}x\n",
             megabytes_scanned / cpu_median, cpu_median * 1e3, megabytes_scanned / cpu_median / target_mb_per_s);
  fmt::print("found: {} functions ({} kernels), {} macros, {} includes, {} namespaces\n", scanned.functions.size(),
             kernels, scanned.macros.size(), scanned.includes.size(), scanned.namespaces.size());
  fmt::print("call graph over all of it: {:.2f} ms\n", graph_seconds * 1e3);
  fmt::print("digest of what was found: {:016x} (equal before and after a speed-up that changes nothing)\n",
             digest(scanned));
  return 0;
}
