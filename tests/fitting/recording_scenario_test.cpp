// Recording scenarios: defaults, and every mistake reported with its field.
#include "fitting/recording_scenario.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "core/io/input_error.hpp"
#include "fitting/synthetic_recording.hpp"
#include "support/recording_scenario_fixture.hpp"

namespace clothfit::fitting {
namespace {

nlohmann::json minimal() {
  return nlohmann::json::parse(R"({
    "recording": "take.csv",
    "cloth": {"width": 0.42, "height": 0.594, "material": "wool"},
    "layout": {"rows": 2, "columns": 3, "markers": [["A1", "A2", "A3"], ["B1", "B2", "B3"]]},
    "obstacles": [{"type": "plane", "name": "floor", "friction": 0.3}],
    "parameters": {"alpha": {"min": 0, "max": 1}, "delta": 0.1}
  })");
}

std::string error_field(const nlohmann::json& json) {
  try {
    parse_recording_scenario(json, "dir/s.json");
  } catch (const InputError& e) {
    return e.location().field;
  }
  return "(no error)";
}

TEST(RecordingScenario, DefaultsAndPaths) {
  const RecordingScenario s = parse_recording_scenario(minimal(), "dir/s.json");
  EXPECT_EQ(s.name, "s");
  EXPECT_EQ(s.recording_path, "dir/take.csv");
  EXPECT_DOUBLE_EQ(s.density, 0.1804);  // wool, paper Table 1
  EXPECT_EQ(s.refinement, 2);
  EXPECT_EQ(s.held_markers, (std::vector<std::string>{"A1", "A3"}));  // the top corners
  ASSERT_EQ(s.parameters.specs().size(), 3u);
  const ParameterSpec& alpha = s.parameters.specs()[0];
  EXPECT_TRUE(alpha.fitted);
  EXPECT_DOUBLE_EQ(alpha.value, 0.5);  // starts in the middle of its bounds
  EXPECT_FALSE(s.parameters.specs()[1].fitted);
  EXPECT_EQ(s.parameters.specs()[2].name, "mu.floor");
  EXPECT_DOUBLE_EQ(s.parameters.specs()[2].value, 0.3);  // the obstacle's own friction
  EXPECT_EQ(s.parameters.fitted(), std::vector<int>{0});
  EXPECT_EQ(s.solver.max_damping_offset, std::numeric_limits<double>::infinity());
  EXPECT_EQ(s.solver.newton_fallback_after, stepper::StepperOptions{}.newton_fallback_after);
  EXPECT_TRUE(s.solver.retry_capped_steps);
  nlohmann::json j = minimal();
  j["solver"] = {{"max_damping_offset", 0.0},
                 {"newton_fallback_after", 5},
                 {"retry_capped_steps", false},
                 {"friction_tolerance", 0.1}};
  const RecordingScenario t = parse_recording_scenario(j, "dir/s.json");
  EXPECT_EQ(t.solver.max_damping_offset, 0.0);
  EXPECT_EQ(t.solver.newton_fallback_after, 5);
  EXPECT_FALSE(t.solver.retry_capped_steps);
  EXPECT_EQ(t.solver.friction_tolerance, 0.1);
}

TEST(RecordingScenario, MistakesNameTheirField) {
  nlohmann::json j = minimal();
  j["parameters"]["gamma"] = 1;
  EXPECT_EQ(error_field(j), "parameters.gamma");
  j = minimal();
  j["parameters"]["alpha"] = {{"min", 1}, {"max", 0.5}};
  EXPECT_EQ(error_field(j), "parameters.alpha.max");
  j = minimal();
  j["parameters"].erase("delta");
  EXPECT_EQ(error_field(j), "parameters.delta");
  j = minimal();
  j["held"] = {"A1", "Z9"};
  EXPECT_EQ(error_field(j), "held");
  j = minimal();
  j["cloth"]["density"] = 0.2;
  EXPECT_EQ(error_field(j), "cloth");
  j = minimal();
  j["held"] = {"A1", "A1"};
  EXPECT_EQ(error_field(j), "held");
  j = minimal();
  j["stick"] = {{"end0", "S"}, {"end1", "B2"}};  // B2 is a cloth marker
  EXPECT_EQ(error_field(j), "stick.end1");
  j = minimal();
  j["refinment"] = 2;
  EXPECT_EQ(error_field(j), "refinment");
  j = minimal();
  j["stick"] = {{"end0", "S"}, {"end1", "S"}};
  EXPECT_EQ(error_field(j), "stick.end1");
  j = minimal();
  j["solver"] = {{"qp", "simplex"}};
  EXPECT_EQ(error_field(j), "solver.qp");
  j = minimal();
  j["solver"] = {{"max_damping_offset", -1e-7}};
  EXPECT_EQ(error_field(j), "solver.max_damping_offset");
  j = minimal();
  j["solver"] = {{"newton_fallback_after", -1}};
  EXPECT_EQ(error_field(j), "solver.newton_fallback_after");
  j = minimal();
  j["solver"] = {{"friction_tolerance", -0.1}};
  EXPECT_EQ(error_field(j), "solver.friction_tolerance");
  j = minimal();
  j["solver"] = {{"retry_capped_steps", "yes"}};
  EXPECT_EQ(error_field(j), "solver.retry_capped_steps");
  // A grid larger than any fit may run (fitting::kMaxGridPoints) was allocated before it was
  // counted, and ran out of memory.
  j = minimal();
  j["fit"] = {{"grid", 2000000000}};
  EXPECT_EQ(error_field(j), "fit.grid");
  j = minimal();
  j["parameters"]["alpha"] = {{"min", 0.1}, {"max", 0.5}, {"grid", 100001}};
  EXPECT_EQ(error_field(j), "parameters.alpha.grid");
  // One replica has no spread: it reported an objective noise of 0.
  j = minimal();
  j["fit"] = {{"noise_replicas", 1}};
  EXPECT_EQ(error_field(j), "fit.noise_replicas");
  j["fit"] = {{"noise_replicas", 2}};
  EXPECT_EQ(error_field(j), "(no error)");
}

// The message of the InputError reading `json` raises, or "(no error)".
std::string error_message(const nlohmann::json& json) {
  try {
    parse_recording_scenario(json, "dir/s.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// Fit bounds beyond kMaxParameterBound (1e6) are refused, saying the limit: {"min": 0, "max":
// 1e308} made the grid search's points, evaluations.csv and the fit.json intervals inf.
TEST(RecordingScenario, FitBoundsAreAtMostAMillion) {
  nlohmann::json j = minimal();
  j["parameters"]["alpha"] = {{"min", 0}, {"max", 1e6}};
  EXPECT_EQ(parse_recording_scenario(j, "dir/s.json").parameters.specs()[0].upper, 1e6);
  j["parameters"]["alpha"] = {{"min", 0}, {"max", 1e308}};
  EXPECT_EQ(error_field(j), "parameters.alpha.max");
  EXPECT_NE(error_message(j).find("expected a bound of at most 1e+06"), std::string::npos)
      << error_message(j);
  EXPECT_NE(error_message(j).find("found 1e+308"), std::string::npos) << error_message(j);
  j["parameters"]["alpha"] = {{"min", 2e6}, {"max", 3e6}};
  EXPECT_EQ(error_field(j), "parameters.alpha.min");
}

// A recording's stick has no friction, as a simulation scenario's: the stepper has none, and
// "friction": 0.5 was accepted and ignored (the objective the same as with 0).
TEST(RecordingScenario, StickFrictionOtherThanZeroIsRefused) {
  nlohmann::json j = minimal();
  j["stick"] = {{"end0", "S0"}, {"end1", "S1"}, {"friction", 0}};
  EXPECT_EQ(parse_recording_scenario(j, "dir/s.json").stick->friction, 0.0);
  j["stick"]["friction"] = 0.5;
  EXPECT_EQ(error_field(j), "stick.friction");
  EXPECT_NE(error_message(j).find("friction between the cloth and the stick is not implemented; "
                                  "expected 0, found 0.5"),
            std::string::npos)
      << error_message(j);
}

// solver.time_step is the frame interval when absent; a time step of 0 (or less) is an error, not
// that default in disguise.
TEST(RecordingScenario, ATimeStepIsPositive) {
  nlohmann::json j = minimal();
  EXPECT_EQ(parse_recording_scenario(j, "dir/s.json").solver.time_step, 0.0);  // the frame's
  j["solver"] = {{"time_step", 0.005}};
  EXPECT_EQ(parse_recording_scenario(j, "dir/s.json").solver.time_step, 0.005);
  for (const double dt : {0.0, -0.01}) {
    j["solver"]["time_step"] = dt;
    EXPECT_EQ(error_field(j), "solver.time_step") << dt;
    EXPECT_NE(error_message(j).find("expected a finite number > 0"), std::string::npos)
        << error_message(j);
  }
}

// A step's iteration cap (and the Gauss–Newton fallback's count) is bounded as in simulation
// scenarios: 1e9 made a step that does not converge endless.
TEST(RecordingScenario, IterationCountsOfAStepAreBounded) {
  nlohmann::json j = minimal();
  j["solver"] = {{"max_iterations", 1000}, {"newton_fallback_after", 1000}};
  EXPECT_EQ(parse_recording_scenario(j, "dir/s.json").solver.max_iterations, 1000);
  nlohmann::json threads = minimal();
  threads["fit"] = {{"threads", 1025}};  // as --threads: a thread per simulation
  EXPECT_EQ(error_field(threads), "fit.threads");
  // Ceres iterations are bounded too: each runs the simulation several times.
  nlohmann::json refinement = minimal();
  refinement["fit"] = {{"max_refinement_iterations", 1000}};
  EXPECT_EQ(parse_recording_scenario(refinement, "dir/s.json").fit.max_refinement_iterations, 1000);
  refinement["fit"]["max_refinement_iterations"] = 1001;
  EXPECT_EQ(error_field(refinement), "fit.max_refinement_iterations");
  EXPECT_NE(error_message(refinement).find("1000"), std::string::npos) << error_message(refinement);
  for (const char* field : {"max_iterations", "newton_fallback_after"}) {
    nlohmann::json bad = j;
    bad["solver"][field] = 1001;
    EXPECT_EQ(error_field(bad), std::string("solver.") + field);
    EXPECT_NE(error_message(bad).find("1000"), std::string::npos) << error_message(bad);
  }
}

// μ is held to obstacles::kMaxFrictionCoefficient as a fixed value and as a bound; α and δ are not.
TEST(RecordingScenario, FrictionAboveItsLimitIsRefused) {
  nlohmann::json j = minimal();
  j["parameters"]["mu.floor"] = {{"min", 0}, {"max", 1000}};
  EXPECT_EQ(error_field(j), "parameters.mu.floor.max");
  j["parameters"]["mu.floor"] = 1e5;
  EXPECT_EQ(error_field(j), "parameters.mu.floor");
  j["parameters"]["mu.floor"] = {{"min", 0}, {"max", 100}};
  EXPECT_EQ(error_field(j), "(no error)");
  j["parameters"]["alpha"] = {{"min", 0}, {"max", 1000}};
  EXPECT_EQ(error_field(j), "(no error)");
}

// A refinement whose mesh would pass mesh::kMaxGridNodes (or overflow the node count) is refused
// where it is written, in the scenario and in its "synth" object.
TEST(RecordingScenario, RefinementIsBoundedByTheMeshSize) {
  nlohmann::json j = minimal();
  j["refinement"] = 500;  // 501 × 1001 nodes on the 2 × 3 markers
  EXPECT_EQ(parse_recording_scenario(j, "dir/s.json").refinement, 500);
  j["refinement"] = 1000;  // 1001 × 2001
  EXPECT_EQ(error_field(j), "refinement");
  j["refinement"] = std::numeric_limits<int>::max();
  EXPECT_EQ(error_field(j), "refinement");
  // 2 × 3 markers at k = 1: a 2 × 3 mesh, no interior node, so nothing holds its quads' shear.
  j["refinement"] = 1;
  try {
    parse_recording_scenario(j, "dir/s.json");
    FAIL() << "a mesh two nodes across was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().field, "refinement");
    EXPECT_NE(std::string(e.what()).find("expected a mesh at least 3 nodes across, found 2 × 3 "
                                         "with 1 on the 2 × 3 marker grid"),
              std::string::npos)
        << e.what();
  }
}

// A cloth too small for its mesh (quads the mesh check would call degenerate) is refused at the
// field that makes it so: the cloth's size when even the marker grid is too fine, else the
// refinement, in the scenario and in its "synth" object. It was an error naming neither the
// file nor a field.
TEST(RecordingScenario, TheClothIsLargeEnoughForItsMesh) {
  nlohmann::json j = minimal();
  j["cloth"]["height"] = 1e-300;
  EXPECT_EQ(error_field(j), "cloth.height");
  j = minimal();
  j["cloth"]["width"] = 2e-9;  // markers 1e-9 m apart
  EXPECT_EQ(error_field(j), "cloth.width");
  j = minimal();
  j["cloth"]["width"] = 1e-8;  // markers 5e-9 m apart, nodes 2.5e-9 m with the default 2
  EXPECT_EQ(parse_recording_scenario(j, "dir/s.json").refinement, 2);
  j["refinement"] = 10;  // 5e-10 m
  EXPECT_EQ(error_field(j), "refinement");

  j = testing::din_a2_recording_scenario("small", 1.0, 0.5, 1);
  j["cloth"]["width"] = 1e-8;    // 5 × 4 markers: 3.3e-9 m apart, nodes 1.7e-9 m
  j["synth"]["refinement"] = 4;  // 8.3e-10 m
  const RecordingScenario scenario = parse_recording_scenario(j, "dir/s.json");
  try {
    parse_synth_settings(scenario);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().field, "synth.refinement");
    EXPECT_NE(e.problem().find("refines the cloth's width too far"), std::string::npos)
        << e.problem();
  }
}

// A generated motion's limits are said with the file's field names and the values found (they
// named the motion's C++ fields: "hitting duration_s must be ≥ 2 s + 2.5 s per strike").
TEST(RecordingScenario, SyntheticMotionLimitsNameTheFieldsAndValues) {
  const auto synth_error = [](const nlohmann::json& json) -> std::string {
    const RecordingScenario scenario = parse_recording_scenario(json, "dir/s.json");
    try {
      parse_synth_settings(scenario);
    } catch (const InputError& e) {
      return e.location().field + ": " + e.problem();
    }
    return "(no error)";
  };
  // This scenario has no stick: a hitting motion that passes its own checks is refused only
  // for that, after them.
  const std::string passed =
      "synth.motion: the motion moves a stick but the scenario has no \"stick\"";
  nlohmann::json j = testing::din_a2_recording_scenario("hit", 12.0, 0.5, 1);
  j["synth"]["motion"] = {{"kind", "hitting"}, {"strikes", 4}};
  EXPECT_EQ(synth_error(j), passed);
  j["synth"]["duration"] = 11.0;
  EXPECT_EQ(synth_error(j),
            "synth.motion.strikes: 4 strikes need synth.duration ≥ 12 s (2 s + "
            "2.5 s per strike), found 11 s");
  j["synth"]["duration"] = 12.0;
  j["synth"]["motion"]["corner_spacing"] = 0.5;  // the DIN A2 sheet is 0.42 m wide
  EXPECT_EQ(synth_error(j).rfind("synth.motion.corner_spacing: expected at most the cloth's width "
                                 "less 1 cm, 0.41 m, found 0.5 m",
                                 0),
            0u)
      << synth_error(j);
  j["synth"]["motion"].erase("corner_spacing");
  j["synth"]["motion"]["width_direction"] = {0, 1, 1};
  EXPECT_EQ(synth_error(j),
            "synth.motion.width_direction: expected a horizontal direction [x, y, "
            "0], found [0, 1, 1]");
  j["synth"]["motion"]["width_direction"] = {0, 2, 0};  // any length
  EXPECT_EQ(synth_error(j), passed);
  j["synth"]["motion"]["min_speed"] = 0.2;
  EXPECT_EQ(synth_error(j), "synth.motion.min_speed: expected at least 0.5 m/s, found 0.2 m/s");
  j["synth"]["motion"]["min_speed"] = 3.0;
  j["synth"]["motion"]["max_speed"] = 2.0;
  EXPECT_EQ(synth_error(j),
            "synth.motion.max_speed: expected at least min_speed (3 m/s), found 2 m/s");
  j["synth"]["motion"] = {{"kind", "tablecloth"}};
  j["synth"]["duration"] = 2.0;
  EXPECT_EQ(synth_error(j),
            "synth.motion.kind: a tablecloth motion needs synth.duration ≥ 2.5 s "
            "(lowering and dragging), found 2 s");
}

// The files a scenario names: an empty path names the field (it said "no such file"), and a
// layout file is read as every JSON file is (a key given twice was taken at its last value, a
// folder was "unexpected end of input"), its errors saying which scenario named it.
TEST(RecordingScenario, FilesItNamesAreCheckedAsTheirFields) {
  for (const char* key : {"recording", "layout", "truth"}) {
    nlohmann::json j = minimal();
    j[key] = "";
    EXPECT_EQ(error_field(j), key);
    EXPECT_NE(error_message(j).find(std::string(key) + ": expected the path of "),
              std::string::npos)
        << error_message(j);
  }
  const auto dir = std::filesystem::temp_directory_path() / "clothfit_recording_scenario_layout";
  std::filesystem::create_directories(dir / "folder.json");
  std::ofstream(dir / "twice.json")
      << R"({"rows": 2, "columns": 3, "rows": 2, "markers": [["A1", "A2", "A3"], ["B1", "B2", "B3"]]})";
  std::ofstream(dir / "good.json")
      << R"({"rows": 2, "columns": 3, "markers": [["A1", "A2", "A3"], ["B1", "B2", "B3"]]})";
  const std::string scenario = (dir / "s.json").string();
  const auto layout_error = [&](const std::string& file) -> std::string {
    nlohmann::json j = minimal();
    j["layout"] = file;
    try {
      parse_recording_scenario(j, scenario);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_NE(layout_error("twice.json").find("twice.json:1:27: rows: given twice"),
            std::string::npos)
      << layout_error("twice.json");
  EXPECT_NE(layout_error("twice.json").find("(the \"layout\" file of " + scenario + ")"),
            std::string::npos);
  EXPECT_NE(layout_error("folder.json").find("is a directory, expected a JSON file"),
            std::string::npos)
      << layout_error("folder.json");
  EXPECT_NE(layout_error("missing.json").find("missing.json: cannot open file for reading"),
            std::string::npos)
      << layout_error("missing.json");
  nlohmann::json j = minimal();
  j["layout"] = "good.json";
  EXPECT_EQ(parse_recording_scenario(j, scenario).layout.rows, 2);
}

// solver.exact_curvature with the interior-point solver was accepted and ignored.
TEST(RecordingScenario, ExactCurvatureNeedsTheActiveSetSolver) {
  nlohmann::json j = testing::din_a2_recording_scenario("exact", 1.0, 0.5, 1);
  j["solver"] = {{"qp", "interior-point"}, {"exact_curvature", true}};
  try {
    parse_recording_scenario(j, "dir/s.json");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().field, "solver.exact_curvature");
    EXPECT_NE(e.problem().find("needs the active-set solver"), std::string::npos) << e.what();
  }
  j["solver"]["qp"] = "active-set";
  EXPECT_NO_THROW(parse_recording_scenario(j, "dir/s.json"));
}

// A keyframe path for a marker the scenario does not hold was ignored: the marker hung free in
// the recording while the file said it moved.
TEST(RecordingScenario, SyntheticKeyframesOnlyForHeldMarkers) {
  nlohmann::json j = testing::din_a2_recording_scenario("keys", 1.0, 0.5, 1);
  const nlohmann::json still = nlohmann::json::parse(R"([{"time": 0, "position": [0, 0, 1]}])");
  j["synth"]["motion"]["held"] = {{"A1", still}, {"A4", still}, {"C2", still}};
  const RecordingScenario scenario = parse_recording_scenario(j, "dir/s.json");
  try {
    parse_synth_settings(scenario);
    ADD_FAILURE() << "a path for C2 was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.location().field, "synth.motion.held.C2");
    EXPECT_EQ(e.problem(),
              "is not a held marker of the scenario (its \"held\": A1, A4); a keyframe path moves "
              "only a held marker");
  }
  j["synth"]["motion"]["held"].erase("C2");
  EXPECT_NO_THROW(parse_synth_settings(parse_recording_scenario(j, "dir/s.json")));
}

// The same bound on the synthetic recording's own refinement, and its steps bounded by
// scenario::kMaxSteps (an overflowing count ran no step at all).
TEST(RecordingScenario, SyntheticRecordingsAreBoundedInMeshAndSteps) {
  const auto synth_error_field = [](const nlohmann::json& json) -> std::string {
    const RecordingScenario scenario = parse_recording_scenario(json, "dir/s.json");
    try {
      parse_synth_settings(scenario);
    } catch (const InputError& e) {
      return e.location().field;
    }
    return "(no error)";
  };
  nlohmann::json j = testing::din_a2_recording_scenario("bounded", 1.0, 0.5, 1);
  j["synth"]["refinement"] = 1000;  // 4001 × 3001 nodes on the 5 × 4 markers
  EXPECT_EQ(synth_error_field(j), "synth.refinement");
  j = testing::din_a2_recording_scenario("bounded", 1e300, 0.5, 1);
  EXPECT_EQ(synth_error_field(j), "synth.duration");
  j = testing::din_a2_recording_scenario("bounded", 1.0, 0.5, 1);
  j["synth"]["substeps"] = 1'000'000'000;
  EXPECT_EQ(synth_error_field(j), "synth.duration");
}

}  // namespace
}  // namespace clothfit::fitting
