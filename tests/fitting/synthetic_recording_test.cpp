// Where make_synthetic_recording's occlusion bursts fall: on a cloth marker only while it is near
// the stick (contact_proximity.hpp), and on the stick's own markers only while some cloth marker
// is. The bundled polyester hitting recording's first seconds, made twice from the same
// simulation: clean (no noise, no gaps), to tell where the markers were, and with bursts alone,
// one starting at every frame near a contact where no gap runs.
#include "fitting/synthetic_recording.hpp"

#include <gtest/gtest.h>

#include "core/collision/point_edge_distance.hpp"
#include "fitting/contact_proximity.hpp"
#include "support/test_paths.hpp"

namespace clothfit::fitting {
namespace {

TEST(SyntheticRecording, OcclusionBurstsFallWhereMarkersAreNearTheStick) {
  const RecordingScenario scenario = load_recording_scenario(
      (testing::source_dir() / "datasets/recordings/polyester_hitting.json").string());
  SynthSettings settings = parse_synth_settings(scenario);
  settings.duration_s = 6.0;
  settings.noise_m = 0.0;
  settings.gap_rate_hz = 0.0;
  settings.occlusion_rate_hz = 0.0;
  const std::vector<double> truth = parse_truth("alpha=0.2,delta=0.08", scenario.parameters);
  const mocap::Take clean = make_synthetic_recording(scenario, settings, truth, nullptr).take;
  settings.occlusion_rate_hz = settings.frame_rate_hz;  // a burst at every frame near a contact
  const mocap::Take take = make_synthetic_recording(scenario, settings, truth, nullptr).take;

  const std::size_t markers = take.marker_count(), stick0 = markers - 2, stick1 = markers - 1;
  ASSERT_EQ(take.marker(stick0).name, scenario.stick->end0_marker);
  ASSERT_EQ(take.marker(stick1).name, scenario.stick->end1_marker);
  // near[f][c]: cloth marker c within 5 cm of the stick's surface at frame f; the stick's markers
  // when some cloth marker is.
  std::vector<std::vector<bool>> near(clean.frame_count(), std::vector<bool>(markers, false));
  std::vector<bool> ever_near(markers, false), has_gap(markers, false);
  for (std::size_t f = 0; f < clean.frame_count(); ++f) {
    for (std::size_t c = 0; c < stick0; ++c) {
      ASSERT_TRUE(clean.position(f, c).allFinite());
      const double distance = collision::point_edge_distance(
          clean.position(f, c), clean.position(f, stick0), clean.position(f, stick1));
      if (distance < scenario.stick->radius_m + kNearStickM)
        near[f][c] = near[f][stick0] = near[f][stick1] = true;
    }
    for (std::size_t c = 0; c < markers; ++c) {
      ever_near[c] = ever_near[c] || near[f][c];
      const bool missing = !take.position(f, c).allFinite();
      has_gap[c] = has_gap[c] || missing;
      // Every gap is a burst, and a burst starts only near a contact.
      if (missing && (f == 0 || take.position(f - 1, c).allFinite())) {
        EXPECT_TRUE(near[f][c]) << take.marker(c).name << "'s gap from frame " << f;
      }
    }
  }
  int cloth_near = 0;
  for (std::size_t c = 0; c < markers; ++c) {
    EXPECT_EQ(has_gap[c], ever_near[c]) << take.marker(c).name;
    cloth_near += c < stick0 && ever_near[c];
  }
  EXPECT_TRUE(ever_near[stick0]);
  EXPECT_GE(cloth_near, 2);
  EXPECT_LT(cloth_near, static_cast<int>(stick0));  // some markers stay away from the stick
}

}  // namespace
}  // namespace clothfit::fitting
