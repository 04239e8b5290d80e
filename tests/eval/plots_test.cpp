// SPDX-License-Identifier: Apache-2.0
// The SVGs of `kforecast eval --plots` are well-formed XML (checked by a small parser below: every
// element closed in order, attributes quoted, only the five predefined entities) with an svg root,
// axes, labels and the data marks.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "eval/plots.hpp"
#include "eval/rows.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::eval;
using forecast::BinDistribution;
using forecast::SpeedupBin;
using kforecast::testing::TempDir;

namespace {

struct XmlCheck {
  bool ok = true;
  std::string problem;
  std::string root;
  std::size_t elements = 0;
};

bool valid_entity(std::string_view text, std::size_t at) {
  for (std::string_view entity : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
    if (text.substr(at, entity.size()) == entity) return true;
  return false;
}

// Enough of XML 1.0 for hand-written SVG: prolog, comments, elements, attributes, text.
XmlCheck check_xml(std::string_view text) {
  XmlCheck result;
  auto failure = [&](std::string why, std::size_t at) {
    result.ok = false;
    result.problem = why + " at offset " + std::to_string(at);
    return result;
  };
  std::vector<std::string> open;
  std::size_t i = 0;
  if (text.starts_with("<?xml")) {
    i = text.find("?>");
    if (i == std::string_view::npos) return failure("unterminated prolog", 0);
    i += 2;
  }
  bool root_closed = false;
  while (i < text.size()) {
    const char c = text[i];
    if (c != '<') {
      if (c == '&' && !valid_entity(text, i)) return failure("bare &", i);
      if (c == '>') return failure("bare >", i);
      if (open.empty() && !std::isspace(static_cast<unsigned char>(c))) return failure("text outside the root", i);
      ++i;
      continue;
    }
    if (text.substr(i, 4) == "<!--") {
      const auto end = text.find("-->", i);
      if (end == std::string_view::npos) return failure("unterminated comment", i);
      i = end + 3;
      continue;
    }
    const bool closing = text.substr(i, 2) == "</";
    std::size_t j = i + (closing ? 2 : 1);
    const std::size_t name_start = j;
    while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '-' || text[j] == ':'))
      ++j;
    const std::string name(text.substr(name_start, j - name_start));
    if (name.empty()) return failure("element without a name", i);
    if (closing) {
      if (j >= text.size() || text[j] != '>') return failure("malformed end tag", i);
      if (open.empty() || open.back() != name) return failure("end tag </" + name + "> does not match", i);
      open.pop_back();
      if (open.empty()) root_closed = true;
      i = j + 1;
      continue;
    }
    if (root_closed) return failure("a second root element", i);
    if (open.empty() && result.root.empty()) result.root = name;
    ++result.elements;
    // Attributes: name="value" (or '), separated by whitespace.
    std::vector<std::string> seen;
    while (true) {
      while (j < text.size() && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
      if (j >= text.size()) return failure("unterminated tag", i);
      if (text[j] == '>') {
        open.push_back(name);
        ++j;
        break;
      }
      if (text.substr(j, 2) == "/>") {
        j += 2;
        if (open.empty()) root_closed = true;
        break;
      }
      const std::size_t attr_start = j;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '-' || text[j] == ':'))
        ++j;
      const std::string attribute(text.substr(attr_start, j - attr_start));
      if (attribute.empty() || j >= text.size() || text[j] != '=') return failure("malformed attribute", j);
      if (std::find(seen.begin(), seen.end(), attribute) != seen.end()) return failure("repeated attribute", j);
      seen.push_back(attribute);
      const char quote = text[j + 1];
      if (quote != '"' && quote != '\'') return failure("unquoted attribute", j);
      const auto end = text.find(quote, j + 2);
      if (end == std::string_view::npos) return failure("unterminated attribute", j);
      for (std::size_t k = j + 2; k < end; ++k) {
        if (text[k] == '<') return failure("< in an attribute", k);
        if (text[k] == '&' && !valid_entity(text, k)) return failure("bare & in an attribute", k);
      }
      j = end + 1;
    }
    i = j;
  }
  if (!open.empty()) return failure("unclosed <" + open.back() + ">", text.size());
  if (!root_closed) return failure("no root element", 0);
  return result;
}

EvalRow row(BinDistribution forecast, double speedup) {
  EvalRow r;
  r.speedup = speedup;
  r.true_bin = forecast::bin_from_speedup(speedup).value();
  r.forecast = forecast;
  return r;
}

std::vector<EvalRow> sample_rows() {
  std::vector<EvalRow> rows;
  for (int i = 0; i < 20; ++i) {
    std::array<double, 8> p{0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05};
    p[static_cast<std::size_t>(i % 8)] += 0.6;
    rows.push_back(row(BinDistribution::from_raw(p).value(), i % 3 == 0 ? 0.5 : 1.2));
  }
  rows.push_back(row(BinDistribution::uniform(), 0.9));
  return rows;
}

}  // namespace

TEST_CASE("eval: the XML check itself rejects what is not well-formed") {
  CHECK(check_xml("<svg><g></g></svg>").ok);
  CHECK(check_xml("<?xml version=\"1.0\"?>\n<svg a=\"1\" b='2'/>").ok);
  CHECK_FALSE(check_xml("<svg><g></svg></g>").ok);
  CHECK_FALSE(check_xml("<svg><text>a & b</text></svg>").ok);
  CHECK_FALSE(check_xml("<svg a=1></svg>").ok);
  CHECK_FALSE(check_xml("<svg a=\"1\" a=\"2\"></svg>").ok);
  CHECK_FALSE(check_xml("<svg>").ok);
  CHECK_FALSE(check_xml("<svg></svg><svg></svg>").ok);
}

TEST_CASE("eval: eval's reliability diagram is well-formed SVG with axes, labels and counts") {
  const auto rows = sample_rows();
  const std::string svg = reliability_diagram_svg(rows, "embedded on <odd & \"named\"> data");
  const auto check = check_xml(svg);
  INFO(check.problem);
  REQUIRE(check.ok);
  CHECK(check.root == "svg");
  CHECK(svg.find("xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
  CHECK(svg.find("confidence: probability of the predicted bin") != std::string::npos);
  CHECK(svg.find("observed accuracy") != std::string::npos);
  CHECK(svg.find("&lt;odd &amp; &quot;named&quot;&gt;") != std::string::npos);  // escaped
  CHECK(svg.find("Reliability diagram (ECE ") != std::string::npos);
  // 20 rows at confidence 0.65 (bucket [0.6, 0.7)) and one at 0.125: both buckets drawn with counts.
  CHECK(svg.find(">n=20<") != std::string::npos);
  CHECK(svg.find(">n=1<") != std::string::npos);
  CHECK(svg.find("<rect") != std::string::npos);
}

TEST_CASE("eval: eval's risk-coverage curve is well-formed SVG with both curves and the policy's point") {
  const auto rows = sample_rows();
  const std::string svg = risk_coverage_svg(rows, {{0.2, 0.5}, 0.02}, "embedded");
  const auto check = check_xml(svg);
  INFO(check.problem);
  REQUIRE(check.ok);
  CHECK(check.root == "svg");
  CHECK(svg.find("coverage: share of pairs trusted") != std::string::npos);
  CHECK(svg.find("error rate among trusted") != std::string::npos);
  std::size_t polylines = 0;
  for (auto at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++polylines;
  CHECK(polylines == 2);
  CHECK(svg.find("the configured policy: ") != std::string::npos);
}

TEST_CASE("eval: eval writes both plots into a new directory") {
  TempDir dir;
  const auto plots = dir.path() / "nested" / "plots";
  const auto rows = sample_rows();
  auto written = write_eval_plots(plots, rows, {{0.2, 0.5}, 0.02}, "x");
  REQUIRE(written.has_value());
  REQUIRE(written->size() == 2);
  for (const auto& path : *written) {
    std::ifstream in(path, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    CHECK(check_xml(text).ok);
  }
  // A directory that cannot be made: an error naming it, not a crash.
  std::ofstream(dir.path() / "file") << "x";
  auto blocked = write_eval_plots(dir.path() / "file" / "sub", rows, {{0.2, 0.5}, 0.02}, "x");
  REQUIRE_FALSE(blocked.has_value());
  CHECK(blocked.error().message.find("--plots: cannot create the directory") != std::string::npos);
}

TEST_CASE("eval: a ledger's measured kernels become rows, failed measurements left out") {
  kforecast::policy::LedgerReading ledger;
  kforecast::policy::LedgerEntry measured;
  measured.kernel = "k";
  measured.file = "src/k.cu";
  measured.speedup = 0.8;
  measured.forecast = kforecast::forecast::BinDistribution::uniform();
  kforecast::policy::LedgerEntry failed = measured;
  failed.speedup.reset();
  ledger.entries = {measured, failed};
  const auto rows = kforecast::eval::ledger_rows(ledger);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].id == "k");
  CHECK(rows[0].family == "src/k.cu");
  CHECK(rows[0].speedup == 0.8);
  CHECK(rows[0].true_bin == kforecast::forecast::bin_from_speedup(0.8).value());
}
