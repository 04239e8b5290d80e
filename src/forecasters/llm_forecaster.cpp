// SPDX-License-Identifier: Apache-2.0
#include "forecasters/llm_forecaster.hpp"

#include <mutex>
#include <ostream>

#include <fmt/format.h>

#include "forecasters/forecast_entry.hpp"
#include "llm/forecast_batch.hpp"
#include "llm/source_text.hpp"

namespace kforecast::forecasters {
namespace {

report::ForecastEntry report_entry(const llm::LlmForecast& forecast, double tolerance) {
  auto entry = forecast_entry("llm", forecast.model, forecast.distribution, tolerance, forecast.rationale);
  entry.prompt_version = forecast.prompt_version;
  entry.cached = forecast.from_cache;
  return entry;
}

}  // namespace

std::string display_url(std::string url) {
  if (auto query = url.find('?'); query != std::string::npos) url.resize(query);
  const auto scheme = url.find("://");
  const auto at = url.find('@', scheme == std::string::npos ? 0 : scheme + 3);
  const auto path = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (scheme != std::string::npos && at != std::string::npos && (path == std::string::npos || at < path))
    url.erase(scheme + 3, at - scheme - 2);
  return url;
}

LlmForecaster::LlmForecaster(LlmForecasterSettings settings, std::unique_ptr<http::HttpTransport> transport,
                             std::optional<llm::ForecastCache> cache, Progress* progress, std::ostream* warnings)
    : m_settings(std::move(settings)),
      m_transport(std::move(transport)),
      m_cache(std::move(cache)),
      m_progress(progress),
      m_warnings(warnings) {}

Result<ForecastRun> LlmForecaster::forecast(std::span<const ForecastRequest> requests) const {
  ForecastRun run;
  if (requests.empty()) return run;
  std::vector<llm::PromptMessages> prompts;
  std::vector<PromptExtras> extras;
  for (const auto& request : requests) {
    extras.push_back(request.prompt_extras ? request.prompt_extras() : PromptExtras{});
    const llm::KernelPair pair{request.candidate.kernel,
                               request.reference.source,
                               request.candidate.source,
                               extras.back().reference_compiler_facts,
                               extras.back().candidate_compiler_facts,
                               extras.back().launch_text,
                               request.changes};
    auto prompt = llm::build_prompt(m_settings.prompts, pair, m_settings.gpu, m_settings.comments);
    if (!prompt) return std::unexpected(prompt.error());
    prompts.push_back(std::move(*prompt));
  }

  // The deadline counts from here, not from construction: the identical-code tier may run long
  // between the two.
  const auto deadline = std::chrono::steady_clock::now() + m_settings.deadline;
  llm::ForecastClient client(m_settings.endpoint, *m_transport, m_settings.prompts, deadline);
  // The first retry is said at once: a dead or stalled endpoint may take minutes to give up
  // (retries, stall limits), and a CI log must not be silent meanwhile. Later ones would only
  // repeat it; the failure itself is the report's warning.
  std::once_flag first_retry;
  if (m_warnings != nullptr)
    client.on_retry([&](std::string_view what) {
      std::call_once(first_retry, [&] {
        if (m_progress != nullptr) m_progress->clear_line();
        *m_warnings << fmt::format("kforecast: warning: the LLM endpoint is failing: {} (later retries are not shown)\n",
                                   what)
                    << std::flush;
      });
    });
  llm::BatchOptions batch{m_settings.concurrency, m_cache ? &*m_cache : nullptr, {}};
  const std::string& model = m_settings.endpoint.model;
  if (m_progress != nullptr)
    batch.progress = [&, stage = std::string("forecasting with ") + model](std::size_t done, std::size_t total) {
      if (done == 0) m_progress->stage(stage, total);
      m_progress->advance(done);
    };
  const auto outcomes = llm::forecast_all(client, prompts, batch);

  const bool stands_in = m_settings.on_failure == OnFailure::embedded_stands_in;
  std::size_t failed = 0, cached = 0;
  int requests_sent = 0;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    KernelForecast kernel;
    kernel.notes = std::move(extras[i].notes);
    if (auto markers = llm::steering_markers(extras[i].candidate_raw); !markers.empty())
      kernel.notes.push_back(
          fmt::format("the candidate's source holds text addressed to a language model (\"{}\"): "
                      "the LLM forecast may have been steered",
                      fmt::join(markers, "\", \"")));
    const auto& outcome = outcomes[i];
    if (!outcome) {
      ++failed;
      requests_sent += outcome.error().requests;
      kernel.failure = outcome.error().message;
      kernel.failure_note =
          fmt::format("no LLM forecast ({}): {}", outcome.error().message,
                      stands_in ? "the embedded forecaster's forecast stands in (forecast.fallback = \"embedded\")"
                                : "treated as unsure");
    } else {
      requests_sent += outcome->requests;
      cached += outcome->from_cache ? 1 : 0;
      kernel.forecast = report_entry(*outcome, m_settings.tolerance);
      for (const auto& note : outcome->notes) kernel.notes.push_back("LLM: " + note);
    }
    run.kernels.push_back(std::move(kernel));
  }
  run.notes = m_settings.prompt_notes;
  const std::size_t forecast = requests.size() - failed;
  run.notes.push_back(fmt::format(
      "LLM forecaster: {} at {}, prompts {}; {} kernel{} forecast ({} from the cache), {} failed{}, {} request{}",
      model, display_url(m_settings.endpoint.url), m_settings.prompts.version, forecast, forecast == 1 ? "" : "s",
      cached, failed, failed > 0 && stands_in ? " (forecast by the embedded forecaster instead)" : "", requests_sent,
      requests_sent == 1 ? "" : "s"));
  return run;
}

}  // namespace kforecast::forecasters
