// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a `kforecast pr` run concluded, independent of how it is written. Field names and values
// follow the JSON contract in DESIGN.md ("Interfaces that other tools rely on").

#include <optional>
#include <string>
#include <vector>

namespace kforecast::report {

enum class Change { modified, added, removed, renamed };
enum class Decision { identical_code, trusted_forecast, measured, forecast_only, skipped };
enum class KernelVerdict { pass, fail, warn };
enum class GateVerdict { pass, fail, inconclusive };

struct KernelEntry {
  std::string name;
  std::string file;
  std::uint32_t line = 0;
  Change change = Change::modified;
  Decision decision = Decision::forecast_only;
  KernelVerdict verdict = KernelVerdict::pass;
  std::vector<std::string> notes;  // why a step did not run, what was compared, ...
  // forecast and measurement are written as null until those stages land.
};

struct Report {
  std::string version;  // kforecast's
  std::string base;     // commit hashes
  std::string head;
  GateVerdict verdict = GateVerdict::pass;
  std::vector<KernelEntry> kernels;
  std::vector<std::string> notes;  // run-level: how the range was chosen, what was unavailable
};

std::string_view to_string(Change change);
std::string_view to_string(Decision decision);
std::string_view to_string(KernelVerdict verdict);
std::string_view to_string(GateVerdict verdict);

}  // namespace kforecast::report
