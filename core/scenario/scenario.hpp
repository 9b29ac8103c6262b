// Scenario: a simulation described by a JSON file (the format is documented field by field in
// README.md, "Scenario files"). load_scenario() validates everything and reports each mistake as
// an InputError naming the file, the field and what was expected.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/qp/qp_solver.hpp"
#include "core/stepper/simulation_model.hpp"

namespace clothfit::scenario {

struct Scenario {
  std::string name;  // defaults to the file name without extension
  std::string description;
  std::string source_path;  // the JSON file
  stepper::SimulationModel model;
  Eigen::VectorXd initial_positions;  // (3N) φ at t = 0 (the placed rest shape), m
  double duration = 1.0;              // simulated seconds
  int output_every = 1;               // write every n-th step

  // The run's steps: duration / time_step rounded to the nearest whole number (load_scenario
  // checks that it is between 1 and kMaxSteps).
  long step_count() const;
};

// The most steps a scenario may ask for: beyond it a run would not end in any useful time, and
// the count would overflow for absurd durations.
inline constexpr long kMaxSteps = 100'000'000;

// Command-line values that replace the file's.
struct ScenarioOverrides {
  std::optional<qp::QpSolverType> qp_solver;
  std::optional<double> duration;
};

Scenario load_scenario(const std::string& path, const ScenarioOverrides& overrides = {});
Scenario parse_scenario(const nlohmann::json& json, const std::string& path,
                        const ScenarioOverrides& overrides = {});

// Empty, or a sentence saying that the initial state starts inside an obstacle: the deepest node
// more than the contact tolerance ε1 inside (signed-distance obstacles: by how much; the needle
// field's h is no distance). The first step would push such nodes out at once, launching the
// sheet; it is a warning, not an error, since a sheet laid on an obstacle may start a rounding
// error inside it. A held node inside is named apart: it follows its target and stays inside.
std::string initial_penetration_warning(const Scenario& scenario);

// Non-empty when nodes of the mesh share a rest position (mesh::coincident_nodes): the quads on
// either side are not joined there, e.g. an OBJ tube whose exporter split its vertices along a UV
// seam. A warning: an open sheet laid on itself is a valid, if unusual, start.
std::string coincident_nodes_warning(const Scenario& scenario);

// Non-empty when a quad is a sliver (mesh::worst_quad_shape above mesh::kSliverAspect): the
// projection may fail to hold it in shape. A warning: such a quad can still run.
std::string sliver_quad_warning(const Scenario& scenario);

// Non-empty when the stick starts through the cloth (its axis crosses a triangle of the initial
// state) or within its radius of a cloth edge: the continuous detection sees crossings during a
// step, so a pierced sheet stays pierced, and a stick that starts too close must push the cloth
// away in the first step, which can fail the run with a message about held nodes or obstacles.
std::string stick_start_warning(const Scenario& scenario);

// Non-empty when self-collisions are on and their thickness is more than half the mesh's
// shortest rest edge: non-adjacent elements start about one edge apart, so they may start closer
// than the thickness (a tube with 4–7 mm edges and the default 4 mm failed its first step with
// a message about held nodes or obstacles).
std::string thickness_warning(const Scenario& scenario);

// The largest cuts of a prescribed path's corner that keyframe_sampling_warning lets pass: of a
// position (m) and of an obstacle's angle (degrees).
inline constexpr double kKeyframeCutWarning_m = 1e-3;
inline constexpr double kKeyframeCutWarning_deg = 0.1;

// Non-empty when a prescribed path (a held node's, an end of the stick, an obstacle's translation
// or angle) has a keyframe between two step times, within the run, where its motion turns by
// more than those thresholds: the run sees the path only at the step times (moving straight
// between them), so it cuts that corner, and a motion shorter than a step is missed altogether.
// Names the worst keyframe and by how much. A warning: a path recorded at another rate than the
// steps is valid.
std::string keyframe_sampling_warning(const Scenario& scenario);

}  // namespace clothfit::scenario
