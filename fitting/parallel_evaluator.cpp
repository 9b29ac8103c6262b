#include "fitting/parallel_evaluator.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <mutex>
#include <ostream>
#include <thread>

namespace clothfit::fitting {

ParallelEvaluator::ParallelEvaluator(const RecordingObjective& objective, int threads,
                                     std::ostream* progress, double progress_interval_s)
    : m_objective(objective),
      m_threads(threads > 0 ? threads
                            : std::max(1, static_cast<int>(std::thread::hardware_concurrency()))),
      m_progress(progress),
      m_progress_interval_s(progress_interval_s) {}

std::vector<Evaluation> ParallelEvaluator::evaluate(const std::vector<std::vector<double>>& points,
                                                    const std::string& label, bool keep_frames) {
  std::vector<Evaluation> results = run(points.size(), label, [&](std::size_t i) {
    return m_objective.evaluate(points[i], keep_frames);
  });
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (results[i].ok)
      m_samples.push_back({points[i], results[i].objective});
  }
  return results;
}

std::vector<Evaluation> ParallelEvaluator::evaluate_replicated(
    const std::vector<std::vector<double>>& points, int replicas, const std::string& label) {
  const std::size_t r = static_cast<std::size_t>(std::max(replicas, 1));
  std::vector<Evaluation> results = run(points.size() * r, label, [&](std::size_t i) {
    return m_objective.evaluate_replica(points[i / r], static_cast<int>(i % r));
  });
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (results[k * r].ok)
      m_samples.push_back({points[k], results[k * r].objective});
  }
  return results;
}

std::vector<Evaluation> ParallelEvaluator::evaluate_replicas(const std::vector<double>& values,
                                                             int first, int count,
                                                             const std::string& label) {
  return run(static_cast<std::size_t>(std::max(count, 0)), label, [&](std::size_t i) {
    return m_objective.evaluate_replica(values, first + static_cast<int>(i));
  });
}

std::vector<Evaluation> ParallelEvaluator::run(std::size_t count, const std::string& label,
                                               const std::function<Evaluation(std::size_t)>& job) {
  using Clock = std::chrono::steady_clock;
  std::vector<Evaluation> results(count);
  std::vector<char> ran(count, 0);  // written by the worker that ran it, read after the joins
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex mutex;
  std::exception_ptr error;
  const auto start = Clock::now();
  auto last_report = start;
  auto worker = [&] {
    for (;;) {
      if (m_stop != nullptr && m_stop->load())
        return;
      const std::size_t i = next.fetch_add(1);
      if (i >= count)
        return;
      try {
        results[i] = job(i);
        ran[i] = 1;
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!error)
          error = std::current_exception();
        next = count;
        return;
      }
      std::lock_guard<std::mutex> lock(mutex);
      ++done;
      if (m_result_observer)
        m_result_observer(label, i, results[i]);
      const auto now = Clock::now();
      if (m_progress &&
          (done == count ||
           std::chrono::duration<double>(now - last_report).count() >= m_progress_interval_s)) {
        last_report = now;
        const double elapsed = std::chrono::duration<double>(now - start).count();
        char line[160];
        std::snprintf(line, sizeof line, "%s: %zu/%zu evaluations, %.1f s, %.1f evaluations/s\n",
                      label.c_str(), done, count, elapsed, elapsed > 0 ? done / elapsed : 0.0);
        *m_progress << line << std::flush;
      }
    }
  };
  const int n = std::min<int>(m_threads, static_cast<int>(count));
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool)
    t.join();
  if (error)
    std::rethrow_exception(error);
  m_stopped = static_cast<std::size_t>(std::count(ran.begin(), ran.end(), 1)) < count;
  for (std::size_t i = 0; i < count; ++i) {
    if (!ran[i])
      continue;
    ++m_evaluations;
    const Evaluation& e = results[i];
    if (e.ok)
      continue;
    if (m_failures++ > 0)
      continue;
    const std::vector<ParameterSpec>& specs = m_objective.parameters().specs();
    for (std::size_t p = 0; p < specs.size() && p < e.values.size(); ++p) {
      char value[64];
      std::snprintf(value, sizeof value, "%s%s=%.6g", p > 0 ? ", " : "", specs[p].name.c_str(),
                    e.values[p]);
      m_first_failure += value;
    }
    m_first_failure += ": " + e.message;
  }
  return results;
}

}  // namespace clothfit::fitting
