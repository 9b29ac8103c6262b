#include "fitting/parallel_evaluator.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
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
  using Clock = std::chrono::steady_clock;
  std::vector<Evaluation> results(points.size());
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex mutex;
  std::exception_ptr error;
  const auto start = Clock::now();
  auto last_report = start;
  auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= points.size())
        return;
      try {
        results[i] = m_objective.evaluate(points[i], keep_frames);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!error)
          error = std::current_exception();
        next = points.size();
        return;
      }
      std::lock_guard<std::mutex> lock(mutex);
      ++done;
      const auto now = Clock::now();
      if (m_progress &&
          (done == points.size() ||
           std::chrono::duration<double>(now - last_report).count() >= m_progress_interval_s)) {
        last_report = now;
        const double elapsed = std::chrono::duration<double>(now - start).count();
        char line[160];
        std::snprintf(line, sizeof line, "%s: %zu/%zu evaluations, %.1f s, %.1f evaluations/s\n",
                      label.c_str(), done, points.size(), elapsed,
                      elapsed > 0 ? done / elapsed : 0.0);
        *m_progress << line << std::flush;
      }
    }
  };
  const int n = std::min<int>(m_threads, static_cast<int>(points.size()));
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool)
    t.join();
  if (error)
    std::rethrow_exception(error);
  m_evaluations += static_cast<long>(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (results[i].ok)
      m_samples.push_back({points[i], results[i].objective});
  }
  return results;
}

}  // namespace clothfit::fitting
