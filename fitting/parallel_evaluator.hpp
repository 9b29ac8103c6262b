// ParallelEvaluator: evaluates a RecordingObjective at many parameter points on a pool of threads
// (one simulation per thread at a time), reporting progress on a stream. Results come back in the
// order of the points.
#pragma once

#include <atomic>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "fitting/recording_objective.hpp"

namespace clothfit::fitting {

// One successful evaluation: where and what it scored.
struct ObjectiveSample {
  std::vector<double> values;  // one per ModelParameters spec
  double objective = 0.0;      // Σ e_n, m
};

class ParallelEvaluator {
 public:
  // threads 0: std::thread::hardware_concurrency(). progress: where "label k/n" lines go (null:
  // silent); a line at most every progress_interval_s seconds and at the end.
  ParallelEvaluator(const RecordingObjective& objective, int threads, std::ostream* progress,
                    double progress_interval_s = 2.0);

  std::vector<Evaluation> evaluate(const std::vector<std::vector<double>>& points,
                                   const std::string& label, bool keep_frames = false);

  // Every point in replicas 0 … replicas − 1: points.size() × replicas runs, point-major (the
  // runs of point k at k·replicas …). Replica 0 runs are kept as samples.
  std::vector<Evaluation> evaluate_replicated(const std::vector<std::vector<double>>& points,
                                              int replicas, const std::string& label);

  // Replicas first … first + count − 1 of the run at `values` (RecordingObjective::
  // evaluate_replica; replica 0 is the run itself), in parallel. Counted as evaluations, but not
  // kept as samples: they say how noisy the objective is, not where it is low.
  std::vector<Evaluation> evaluate_replicas(const std::vector<double>& values, int first, int count,
                                            const std::string& label);

  // Called with the call's label (e.g. "grid search"), each run's index (as in the vector the call
  // returns) and result as soon as it is done, from the worker threads one at a time (under a
  // lock: keep it short, and do not throw), e.g. to save what is done while a long sweep goes
  // on. Empty: none.
  using ResultObserver =
      std::function<void(const std::string& label, std::size_t index, const Evaluation& result)>;
  void set_result_observer(ResultObserver observer) { m_result_observer = std::move(observer); }

  // While *stop is set, no further run starts: the call returns once the runs under way are done,
  // the others left as default Evaluations (not ok, not counted) and stopped() true. Null: none.
  void set_stop_flag(const std::atomic<bool>* stop) { m_stop = stop; }
  // Whether the last call ended early because of the stop flag.
  bool stopped() const { return m_stopped; }

  int threads() const { return m_threads; }
  long evaluations() const { return m_evaluations; }  // all evaluations so far
  // Evaluations whose simulation failed so far, and the first of them: its parameter values
  // ("alpha=0.2, delta=0.08: ") and why it failed (Evaluation::message); empty when none failed.
  long failures() const { return m_failures; }
  const std::string& first_failure() const { return m_first_failure; }
  // Every successful evaluation so far, in the order they were asked for.
  const std::vector<ObjectiveSample>& samples() const { return m_samples; }

 private:
  // Runs job(i) for i = 0 … count − 1 on the pool, with progress lines under `label`.
  std::vector<Evaluation> run(std::size_t count, const std::string& label,
                              const std::function<Evaluation(std::size_t)>& job);

  const RecordingObjective& m_objective;
  int m_threads;
  std::ostream* m_progress;
  double m_progress_interval_s;
  ResultObserver m_result_observer;
  const std::atomic<bool>* m_stop = nullptr;
  bool m_stopped = false;
  long m_evaluations = 0;
  long m_failures = 0;
  std::string m_first_failure;
  std::vector<ObjectiveSample> m_samples;
};

}  // namespace clothfit::fitting
