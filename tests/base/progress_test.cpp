// SPDX-License-Identifier: Apache-2.0
#include "base/progress.hpp"

#include <algorithm>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>

using kforecast::Progress;
using kforecast::ProgressStyle;

TEST_CASE("base: progress lines") {
  std::ostringstream out;
  double now = 100.0;
  const auto clock = [&] { return now; };

  SECTION("live: nothing for a run shorter than the delay, then one line redrawn in place") {
    Progress progress(out, ProgressStyle::live, clock);
    progress.stage("forecasting", 10);
    progress.advance(3);
    CHECK(out.str().empty());
    now += 2.5;
    progress.advance(4);
    progress.add_gpu_seconds(1.25);  // within the redraw interval: not drawn yet
    CHECK(out.str() == "\r\x1b[Kkforecast: forecasting 4/10 kernels (2 s)");
    now += 0.5;
    progress.advance(5);
    CHECK(out.str().ends_with("\r\x1b[Kkforecast: forecasting 5/10 kernels, GPU 1.2 s (3 s)"));
    progress.finish();
    CHECK(out.str().ends_with("\r\x1b[K"));
  }
  SECTION("log: a plain line per stage, and within a stage at most one per interval") {
    Progress progress(out, ProgressStyle::log, clock);
    progress.stage("scanning both revisions");
    progress.stage("measuring on the GPU", 2);
    progress.advance(1);
    now += 11;
    progress.advance(2);
    progress.finish();
    CHECK(out.str() ==
          "kforecast: scanning both revisions (0 s)\n"
          "kforecast: measuring on the GPU 0/2 kernels (0 s)\n"
          "kforecast: measuring on the GPU 2/2 kernels (11 s)\n");
  }
  SECTION("log with a delay and a heartbeat: quiet for a short run, then a line each interval") {
    Progress progress(out, ProgressStyle::log, clock);
    progress.log_delay = 30;
    progress.log_interval = 30;
    progress.stage("building units", 4);
    progress.tick();
    now += 29;
    progress.tick();
    CHECK(out.str().empty());
    now += 1;
    progress.tick();  // nothing advanced: the heartbeat still says where the run is
    CHECK(out.str() == "kforecast: building units 0/4 kernels (30 s)\n");
    now += 10;
    progress.tick();
    progress.advance(1);
    CHECK(out.str() == "kforecast: building units 0/4 kernels (30 s)\n");
    now += 20;
    progress.tick();
    CHECK(out.str().ends_with("kforecast: building units 1/4 kernels (60 s)\n"));
  }
  SECTION("a heartbeat thread stops with finish()") {
    std::ostringstream lines;
    Progress progress(lines, ProgressStyle::log);
    progress.log_interval = 0;
    progress.stage("compiling");
    progress.start_heartbeat(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    progress.finish();
    const auto shown = lines.str();
    CHECK(std::count(shown.begin(), shown.end(), '\n') >= 3);
  }
  SECTION("silent: nothing at all") {
    Progress progress(out, ProgressStyle::silent, clock);
    progress.stage("forecasting", 1);
    now += 100;
    progress.advance(1);
    CHECK(out.str().empty());
  }
}
