// SPDX-License-Identifier: Apache-2.0
// Benchmark: parse a synthetic, deterministic 50 MB git diff (many files, hunks of mixed sizes,
// renames, mode changes, binary, added and deleted files) several times and print the median
// throughput against the 200 MB/s target, what was found, and peak memory before and after.
// Pure parse: git is not run, and synthesis is not timed.
//
// Usage: diff_parse_bench [MEGABYTES=50] [RUNS=9]

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "diff/unified_diff.hpp"

namespace {

constexpr double target_mb_per_s = 200.0;

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

// Source-like lines of varied length, so line splitting sees realistic lengths (about 40 bytes).
constexpr std::array<const char*, 12> code = {
    "__global__ void kernel(const float* __restrict__ a, float* b, int n) {",
    "  const int i = blockIdx.x * blockDim.x + threadIdx.x;",
    "  if (i >= n) return;",
    "  __shared__ float tile[32][33];",
    "  float acc = 0.0f;",
    "  for (int k = 0; k < K; k += 8) {",
    "    acc += a[i * K + k] * b[k * N + j];",
    "  }",
    "  __syncthreads();",
    "#pragma unroll",
    "}",
    "",
};

class Synthesizer {
 public:
  explicit Synthesizer(std::size_t bytes) { m_text.reserve(bytes + (1u << 20)); }

  std::string run(std::size_t bytes) {
    for (std::uint32_t file = 0; m_text.size() < bytes; ++file) write_file(file);
    return std::move(m_text);
  }

 private:
  std::uint32_t pick(std::uint32_t below) { return static_cast<std::uint32_t>(m_rng() % below); }

  void line(char kind) {
    m_text += kind;
    m_text += code[pick(code.size())];
    if (pick(4) == 0) m_text += "  // tuned for sm_90";
    m_text += '\n';
  }

  void write_file(std::uint32_t file) {
    const std::string path = "src/stage" + std::to_string(file % 37) + "/kernel_" + std::to_string(file) + ".cu";
    const std::uint32_t roll = pick(100);
    if (roll < 2) {  // binary
      m_text += "diff --git a/" + path + ".bin b/" + path + ".bin\nindex 0f49c4a..8f3d91d 100644\n";
      m_text += "Binary files a/" + path + ".bin and b/" + path + ".bin differ\n";
      return;
    }
    if (roll < 5) {  // added
      const std::uint32_t count = 20 + pick(400);
      m_text += "diff --git a/" + path + " b/" + path + "\nnew file mode 100644\nindex 0000000..1234567\n";
      m_text += "--- /dev/null\n+++ b/" + path + "\n@@ -0,0 +1," + std::to_string(count) + " @@\n";
      for (std::uint32_t i = 0; i < count; ++i) line('+');
      return;
    }
    if (roll < 7) {  // deleted
      const std::uint32_t count = 20 + pick(400);
      m_text += "diff --git a/" + path + " b/" + path + "\ndeleted file mode 100644\nindex 1234567..0000000\n";
      m_text += "--- a/" + path + "\n+++ /dev/null\n@@ -1," + std::to_string(count) + " +0,0 @@\n";
      for (std::uint32_t i = 0; i < count; ++i) line('-');
      return;
    }
    std::string old_path = path;
    if (roll < 12) {  // renamed with an edit
      old_path = "src/old/kernel_" + std::to_string(file) + ".cu";
      m_text += "diff --git a/" + old_path + " b/" + path + "\nsimilarity index " + std::to_string(50 + pick(50)) +
                "%\nrename from " + old_path + "\nrename to " + path + "\nindex 1234567..89abcde 100644\n";
    } else if (roll < 14) {  // mode change with an edit
      m_text += "diff --git a/" + path + " b/" + path + "\nold mode 100644\nnew mode 100755\nindex 1234567..89abcde\n";
    } else {
      m_text += "diff --git a/" + path + " b/" + path + "\nindex 1234567..89abcde 100644\n";
    }
    m_text += "--- a/" + old_path + "\n+++ b/" + path + "\n";
    write_hunks();
  }

  // 1 to 8 hunks; each 3 context lines, a change of 1 to 40 removed and added lines (mostly
  // small, sometimes large), 3 context lines.
  void write_hunks() {
    std::uint32_t old_line = 1 + pick(50), new_line = old_line;
    const std::uint32_t hunks = 1 + pick(8);
    for (std::uint32_t h = 0; h < hunks; ++h) {
      const std::uint32_t removed = pick(4) == 0 ? pick(40) : pick(4);
      const std::uint32_t added = pick(4) == 0 ? 1 + pick(40) : 1 + pick(4);
      const std::uint32_t old_count = 6 + removed, new_count = 6 + added;
      m_text += "@@ -" + std::to_string(old_line) + "," + std::to_string(old_count) + " +" + std::to_string(new_line) +
                "," + std::to_string(new_count) + " @@ void kernel()\n";
      for (int i = 0; i < 3; ++i) line(' ');
      for (std::uint32_t i = 0; i < removed; ++i) line('-');
      for (std::uint32_t i = 0; i < added; ++i) line('+');
      for (int i = 0; i < 3; ++i) line(' ');
      const std::uint32_t gap = 10 + pick(200);
      old_line += old_count + gap;
      new_line += new_count + gap;
    }
  }

  std::string m_text;
  std::mt19937_64 m_rng{20260101};
};

}  // namespace

int main(int argc, char** argv) {
  const std::size_t megabytes = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 50;
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 9;
  const long rss_at_start = peak_rss_kib();
  const std::string text = Synthesizer(megabytes * 1000 * 1000).run(megabytes * 1000 * 1000);
  const long rss_before = peak_rss_kib();

  std::vector<double> seconds;
  kforecast::diff::ParsedDiff parsed;
  for (int run = 0; run <= runs; ++run) {  // run 0 warms caches and is not counted
    parsed = {};                           // one result alive at a time, so peak RSS shows what one parse costs
    const auto start = std::chrono::steady_clock::now();
    auto result = kforecast::diff::parse_unified_diff(text);
    const auto stop = std::chrono::steady_clock::now();
    if (!result) {
      std::fprintf(stderr, "diff_parse_bench: the synthetic diff did not parse: %s\n", result.error().message.c_str());
      return 1;
    }
    if (run > 0) seconds.push_back(std::chrono::duration<double>(stop - start).count());
    parsed = std::move(*result);
  }
  const long rss_after = peak_rss_kib();
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  const double mb = static_cast<double>(text.size()) / 1e6;
  const double mb_per_s = mb / median;

  std::size_t hunks = 0, added = 0, removed = 0, binary = 0, renamed = 0, result_bytes = 0;
  for (const auto& file : parsed.files) {
    hunks += file.hunks.size();
    binary += file.binary ? 1 : 0;
    renamed += file.kind == kforecast::diff::ChangeKind::renamed ? 1 : 0;
    result_bytes += sizeof file + file.old_path.capacity() + file.new_path.capacity() +
                    file.hunks.capacity() * sizeof(kforecast::diff::Hunk);
    for (const auto& hunk : file.hunks) {
      added += hunk.added.size();
      removed += hunk.removed.size();
      result_bytes += (hunk.added.capacity() + hunk.removed.capacity()) * sizeof(std::uint32_t);
    }
  }
  std::printf("diff_parse_bench: pure parse of an in-memory diff (git diff is not run; synthesis is not timed)\n");
  std::printf("input:        %.1f MB (1 MB = 10^6 bytes), %zu runs after one warm-up\n", mb, seconds.size());
  std::printf("found:        %zu files (%zu renamed, %zu binary), %zu hunks, %zu added and %zu removed lines\n",
              parsed.files.size(), renamed, binary, hunks, added, removed);
  std::printf("time:         median %.1f ms per parse (min %.1f, max %.1f)\n", median * 1e3, seconds.front() * 1e3,
              seconds.back() * 1e3);
  std::printf("throughput:   %.0f MB/s median; %.2fx the %.0f MB/s target\n", mb_per_s, mb_per_s / target_mb_per_s,
              target_mb_per_s);
  std::printf("result size:  %.1f MB (line numbers, hunks, paths)\n", static_cast<double>(result_bytes) / 1e6);
  std::printf("peak RSS:     %.1f MB at start, %.1f MB with the input built, %.1f MB after parsing (+%.1f MB)\n",
              rss_at_start / 1024.0, rss_before / 1024.0, rss_after / 1024.0, (rss_after - rss_before) / 1024.0);
  return mb_per_s >= target_mb_per_s ? 0 : 1;
}
