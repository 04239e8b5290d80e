// SPDX-License-Identifier: Apache-2.0
#include "eval/plots.hpp"

#include <fstream>

#include <fmt/format.h>

#include "forecast/calibration.hpp"
#include "forecast/selective.hpp"

namespace kforecast::eval {
namespace {

// The plot area inside a fixed canvas; both axes run over [0, 1]. The legend sits below the x
// axis's label, where no data can hide it.
constexpr double width = 600, height = 500, left = 80, top = 60, plot_w = 460, plot_h = 300;
constexpr double legend_top = top + plot_h + 62;
double px(double x) { return left + x * plot_w; }
double py(double y) { return top + plot_h - y * plot_h; }

std::string xml_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters even escaped.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') out += c;
    }
  }
  return out;
}

std::string text(double x, double y, std::string_view content, std::string_view extra = "") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\"{}{}>{}</text>\n", x, y, extra.empty() ? "" : " ", extra,
                     xml_escape(content));
}

// Canvas, title, both axes with ticks at every 0.2, and their labels.
std::string frame(std::string_view title, std::string_view subtitle, std::string_view x_label,
                  std::string_view y_label) {
  std::string svg = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect x=\"0\" y=\"0\" width=\"{0:.0f}\" height=\"{1:.0f}\" fill=\"white\"/>\n",
      width, height);
  svg += text(width / 2, 22, title, "text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\"");
  svg += text(width / 2, 40, subtitle, "text-anchor=\"middle\" fill=\"#555\"");
  svg += fmt::format(
      "<g stroke=\"black\" stroke-width=\"1\">\n<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\"/>\n"
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{3:.1f}\"/>\n</g>\n",
      px(0), py(0), px(1), py(1));
  for (int i = 0; i <= 5; ++i) {
    const double v = i / 5.0;
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"black\"/>\n", px(v),
                       py(0), py(0) + 5);
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"black\"/>\n",
                       px(0) - 5, py(v), px(0));
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#ddd\" stroke-width=\"0.5\"/>\n",
        px(0), py(v), px(1));
    svg += text(px(v), py(0) + 18, fmt::format("{:.1f}", v), "text-anchor=\"middle\"");
    svg += text(px(0) - 8, py(v) + 4, fmt::format("{:.1f}", v), "text-anchor=\"end\"");
  }
  svg += text(px(0.5), py(0) + 40, x_label, "text-anchor=\"middle\"");
  svg += text(24, py(0.5), y_label, fmt::format("text-anchor=\"middle\" transform=\"rotate(-90 24 {:.1f})\"", py(0.5)));
  return svg;
}

std::string polyline(std::span<const std::pair<double, double>> points, std::string_view style) {
  std::string coordinates;
  for (const auto& [x, y] : points) coordinates += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
  if (!coordinates.empty()) coordinates.pop_back();
  return fmt::format("<polyline points=\"{}\" fill=\"none\" {}/>\n", coordinates, style);
}

std::string legend_entry(int index, std::string_view colour, std::string_view label, std::string_view dash = "") {
  const double y = legend_top + index * 18.0, x = px(0);
  return fmt::format(
             "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", x,
             y, x + 24, y, colour, dash.empty() ? "" : fmt::format(" stroke-dasharray=\"{}\"", dash)) +
         text(x + 30, y + 4, label);
}

// Risk-coverage points of the rows trusted most-confident first, with `loss` per row.
std::vector<std::pair<double, double>> curve(std::span<const EvalRow> rows, auto loss) {
  std::vector<forecast::ScoredPrediction> scored;
  for (const EvalRow& row : rows) scored.push_back({row.forecast.max_probability(), loss(row)});
  std::vector<std::pair<double, double>> points{{0.0, 0.0}};
  if (auto computed = forecast::risk_coverage_curve(scored)) {
    points.clear();
    for (const auto& p : *computed) points.emplace_back(p.coverage, p.risk);
  }
  return points;
}

}  // namespace

std::string reliability_diagram_svg(std::span<const EvalRow> rows, std::string_view subtitle) {
  std::vector<forecast::ConfidenceOutcome> outcomes;
  for (const EvalRow& row : rows)
    outcomes.push_back({row.forecast.max_probability(), row.forecast.predicted_bin() == row.true_bin});
  const auto buckets = forecast::reliability_buckets(outcomes).value_or(std::vector<forecast::ReliabilityBucket>{});
  const auto ece = forecast::expected_calibration_error(outcomes);
  std::string svg = frame(fmt::format("Reliability diagram (ECE {})", ece ? fmt::format("{:.3f}", *ece) : "n/a"),
                          subtitle, "confidence: probability of the predicted bin", "observed accuracy");
  svg += fmt::format(
      "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n",
      px(0), py(0), px(1), py(1));
  for (const auto& b : buckets) {
    if (b.count == 0) continue;
    svg += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#4a7ab5\" fill-opacity=\"0.55\" "
        "stroke=\"#2a4a75\"/>\n",
        px(b.low) + 1, py(b.accuracy), (b.high - b.low) * plot_w - 2, b.accuracy * plot_h);
    svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"#c0392b\"/>\n", px(b.mean_confidence),
                       py(b.accuracy));
    svg += text(px((b.low + b.high) / 2), py(b.accuracy) - 6, fmt::format("n={}", b.count),
                "text-anchor=\"middle\" font-size=\"10\"");
  }
  svg += legend_entry(0, "#4a7ab5", "accuracy per confidence bucket (n = pairs in it)");
  svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"#c0392b\"/>\n", px(0) + 12, legend_top + 18);
  svg += text(px(0) + 30, legend_top + 22, "at the bucket's mean confidence");
  svg += legend_entry(2, "#888", "perfect calibration", "4 3");
  return svg + "</svg>\n";
}

std::string risk_coverage_svg(std::span<const EvalRow> rows, const PolicySettingsForEval& policy,
                              std::string_view subtitle) {
  const auto wrong =
      curve(rows, [](const EvalRow& row) { return row.forecast.predicted_bin() == row.true_bin ? 0.0 : 1.0; });
  const auto regressions =
      curve(rows, [&](const EvalRow& row) { return policy::is_regression(row.speedup, policy.tolerance) ? 1.0 : 0.0; });
  std::string svg = frame("Risk-coverage: trusting the most confident forecasts first", subtitle,
                          "coverage: share of pairs trusted (not measured)", "error rate among trusted");
  svg += polyline(wrong, "stroke=\"#4a7ab5\" stroke-width=\"2\"");
  svg += polyline(regressions, "stroke=\"#c0392b\" stroke-width=\"2\" stroke-dasharray=\"6 3\"");
  // The configured policy (which also looks at P(regression)) as one point.
  std::size_t trusted = 0, trusted_regressions = 0;
  for (const EvalRow& row : rows) {
    if (!policy::is_trusted(row.forecast, policy.thresholds, policy.tolerance)) continue;
    ++trusted;
    trusted_regressions += policy::is_regression(row.speedup, policy.tolerance);
  }
  const double coverage = rows.empty() ? 0 : static_cast<double>(trusted) / static_cast<double>(rows.size());
  const double risk = trusted == 0 ? 0 : static_cast<double>(trusted_regressions) / static_cast<double>(trusted);
  svg +=
      fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>\n",
                  px(coverage), py(risk));
  svg += legend_entry(0, "#4a7ab5", "predicted bin wrong");
  svg += legend_entry(1, "#c0392b", "measured regression (the gate's error)", "6 3");
  svg +=
      fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>\n",
                  px(0) + 12, legend_top + 36);
  svg += text(px(0) + 30, legend_top + 40,
              fmt::format("the configured policy: {} of {} trusted, {} regressions among them", trusted, rows.size(),
                          trusted_regressions));
  return svg + "</svg>\n";
}

Result<std::vector<std::filesystem::path>> write_eval_plots(const std::filesystem::path& directory,
                                                            std::span<const EvalRow> rows,
                                                            const PolicySettingsForEval& policy,
                                                            std::string_view subtitle) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error)
    return fail(ExitCode::could_not_run,
                fmt::format("--plots: cannot create the directory '{}': {}", directory.string(), error.message()));
  std::vector<std::filesystem::path> written;
  for (const auto& [name, svg] : {std::pair{"reliability.svg", reliability_diagram_svg(rows, subtitle)},
                                  std::pair{"risk_coverage.svg", risk_coverage_svg(rows, policy, subtitle)}}) {
    const auto path = directory / name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out || !(out << svg) || !out.flush())
      return fail(ExitCode::could_not_run, fmt::format("--plots: cannot write '{}'", path.string()));
    written.push_back(path);
  }
  return written;
}

}  // namespace kforecast::eval
