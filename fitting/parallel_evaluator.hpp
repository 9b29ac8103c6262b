// ParallelEvaluator: evaluates a RecordingObjective at many parameter points on a pool of threads
// (one simulation per thread at a time), reporting progress on a stream. Results come back in the
// order of the points.
#pragma once

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

  int threads() const { return m_threads; }
  long evaluations() const { return m_evaluations; }  // all evaluations so far
  // Every successful evaluation so far, in the order they were asked for.
  const std::vector<ObjectiveSample>& samples() const { return m_samples; }

 private:
  const RecordingObjective& m_objective;
  int m_threads;
  std::ostream* m_progress;
  double m_progress_interval_s;
  long m_evaluations = 0;
  std::vector<ObjectiveSample> m_samples;
};

}  // namespace clothfit::fitting
