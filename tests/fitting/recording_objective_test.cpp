// RecordingObjective's kept frames (what `clothfit fit` writes as the simulated markers): one row
// of marker positions per frame, frame 0 the initial state, and each later frame the positions
// whose error against the recording is that frame's e_n and s_n. (Found missing by
// scripts/mutate.py: an extra marker per frame 0 passed every test.)
#include "fitting/recording_objective.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/table_recording_fixture.hpp"

namespace clothfit::fitting {
namespace {

TEST(RecordingObjective, KeptFramesAreTheMarkersTheFrameErrorsWereMeasuredOn) {
  const auto recording = testing::table_recording(10);
  const RecordingSetup& setup = recording->setup;
  const RecordingObjective objective(setup, recording->scenario.parameters);
  const Evaluation kept = objective.evaluate(std::vector<double>{0.2, 0.08, 1.0}, true);
  ASSERT_TRUE(kept.ok) << kept.message;
  const std::size_t cells = setup.marker_nodes.size();
  ASSERT_EQ(kept.simulated_m.size(), setup.frames * cells * 3);
  ASSERT_EQ(kept.frames.size(), setup.frames - 1);
  ASSERT_EQ(kept.contact.size(), setup.frames - 1);
  for (std::size_t c = 0; c < cells; ++c) {
    for (int d = 0; d < 3; ++d)
      EXPECT_EQ(kept.simulated_m[3 * c + d], setup.initial_positions[3 * setup.marker_nodes[c] + d])
          << "frame 0, marker " << c;
  }
  for (std::size_t f = 1; f < setup.frames; ++f) {
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>> simulated(
        kept.simulated_m.data() + 3 * f * cells, static_cast<Eigen::Index>(cells), 3);
    const FrameError e = frame_error(simulated, setup.recorded(f), setup.marker_weights);
    EXPECT_EQ(e.error_m, kept.frames[f - 1].error_m) << "frame " << f;
    EXPECT_EQ(e.spread_m, kept.frames[f - 1].spread_m) << "frame " << f;
  }
  // Keeping the frames changes nothing else.
  const Evaluation plain = objective.evaluate(std::vector<double>{0.2, 0.08, 1.0});
  EXPECT_EQ(plain.objective, kept.objective);
  EXPECT_TRUE(plain.simulated_m.empty());
  EXPECT_TRUE(plain.frames.empty());
}

// Steps at the iteration cap are taken again (stepper::StepperOptions::retry_capped_steps), and
// the evaluation counts them: with one iteration per projection, every step that reaches the cap
// does so again.
TEST(RecordingObjective, CountsTheStepsTakenAgainAtTheCap) {
  const auto recording = testing::table_recording(5);
  recording->setup.model.options.max_iterations = 1;
  const RecordingObjective objective(recording->setup, recording->scenario.parameters);
  const Evaluation e = objective.evaluate(std::vector<double>{0.2, 0.08, 1.0});
  ASSERT_TRUE(e.ok) << e.message;
  EXPECT_GT(e.unconverged_steps, 0);
  EXPECT_EQ(e.retried_steps, e.unconverged_steps);
  EXPECT_NE(e.message.find("taken again with the compliance centred"), std::string::npos)
      << e.message;
}

}  // namespace
}  // namespace clothfit::fitting
