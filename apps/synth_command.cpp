// clothfit synth SCENARIO.json --truth alpha=…,delta=…[,mu.NAME=…] --out TAKE.csv: a synthetic
// recording of the scenario's "synth" motion made with known parameters on a finer mesh, written
// as a Motive CSV 1.23 export (y up, millimetres) plus TAKE.truth.json.
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "apps/command_line.hpp"
#include "apps/output_files.hpp"
#include "core/io/input_error.hpp"
#include "fitting/synthetic_recording.hpp"
#include "mocap/mocap_input_error.hpp"
#include "mocap/motive_csv_writer.hpp"

namespace po = boost::program_options;

namespace clothfit::apps {
namespace {

const char* kUsage =
    "usage: clothfit synth SCENARIO.json --truth alpha=A,delta=D[,mu.NAME=M] --out TAKE.csv\n\n"
    "Simulates the scenario's \"synth\" motion with the true parameters on a finer mesh (synth\n"
    "refinement, default max(4, 2k)) and a smaller time step (synth substeps per frame), samples\n"
    "the marker nodes at the frame rate, adds marker noise, random gaps and occlusion bursts\n"
    "near contacts, and writes TAKE.csv (Motive CSV 1.23, y up, millimetres) and the truth JSON.\n"
    "\noptions";

}  // namespace

int run_synth_command(int argc, char** argv) {
  po::options_description options(kUsage);
  std::string scenario_path, out_path, truth_text, truth_path;
  long seed = -1;
  options.add_options()("help,h", "show this help")(
      "truth,t", po::value(&truth_text),
      "true parameter values, e.g. alpha=0.2,delta=0.08,mu.table=0.5 (fitted parameters are "
      "required; fixed ones default to the scenario's values)")("out,o", po::value(&out_path),
                                                                "the Motive CSV file to write")(
      "truth-out", po::value(&truth_path), "the truth JSON; default: TAKE.truth.json")(
      "seed", po::value(&seed), "random seed of noise and gaps; default: synth.seed")(
      "quiet,q", "no progress output on stderr");
  po::variables_map vm;
  if (auto code = parse_command_line("synth", argc, argv, options, "scenario", &scenario_path, &vm))
    return *code;
  if (scenario_path.empty() || out_path.empty() || truth_text.empty())
    return usage_error("synth", "needs a scenario file, --truth and --out TAKE.csv");
  if (auto code = check_option_range("synth", vm, "seed", seed, 0))
    return *code;
  if (truth_path.empty()) {
    std::filesystem::path p(out_path);
    truth_path = (p.parent_path() / (p.stem().string() + ".truth.json")).string();
  }
  std::ostream* progress = vm.count("quiet") ? nullptr : &std::cerr;
  // Both files are checked before the recording is made (minutes of simulation): one path for
  // both, or a folder that does not exist, is bad input, not a run that fails at its end.
  {
    std::error_code ec;
    // Absolute first: weakly_canonical leaves a relative path to a file not yet there relative,
    // so "o.csv" and "./o.csv" compared unequal (the run then ended in a failed rename).
    const auto resolved = [](const std::string& path) {
      std::error_code failed;
      const std::filesystem::path absolute = std::filesystem::absolute(path, failed);
      const std::filesystem::path p = std::filesystem::weakly_canonical(absolute, failed);
      return failed ? absolute.lexically_normal() : p;
    };
    if (resolved(out_path) == resolved(truth_path))
      return usage_error("synth", "--out and --truth-out name the same file, '" + out_path + "'");
    for (const std::string& path : {out_path, truth_path}) {
      if (!input_named_as_output(path, {scenario_path}).empty())
        return usage_error("synth", "'" + path +
                                        "' is the scenario file; writing it would "
                                        "destroy it (--out names the take to write)");
    }
    for (const std::string& path : {out_path, truth_path}) {
      const std::filesystem::path file(path);
      const std::filesystem::path folder =
          file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
      std::string problem;
      if (!std::filesystem::is_directory(folder, ec))
        problem = "its folder '" + folder.string() + "' does not exist";
      else if (std::filesystem::is_directory(file, ec))
        problem = "it is a folder";
      else if (::access(folder.c_str(), W_OK) != 0)
        problem = "its folder '" + folder.string() + "' is not writable";
      if (!problem.empty()) {
        std::cerr << "clothfit synth: cannot write '" << path << "': " << problem << "\n";
        return kExitBadInput;
      }
    }
  }

  fitting::RecordingScenario scenario;
  fitting::SynthSettings settings;
  std::vector<double> truth;
  std::optional<int> code;
  try {
    code = report_input_errors("synth", [&] {
      scenario = fitting::load_recording_scenario(scenario_path);
      settings = fitting::parse_synth_settings(scenario);
      if (vm.count("seed"))
        settings.seed = static_cast<std::uint64_t>(seed);
      truth = fitting::parse_truth(truth_text, scenario.parameters);
    });
  } catch (const std::invalid_argument& e) {
    return usage_error("synth", std::string("--truth: ") + e.what());
  }
  if (code)
    return *code;
  std::optional<fitting::SyntheticRecording> made;
  try {
    code = report_input_errors("synth", [&] {
      made = fitting::make_synthetic_recording(scenario, settings, truth, progress);
    });
    if (code)
      return *code;
  } catch (const std::exception& e) {
    std::cerr << "clothfit synth: " << e.what() << "\n";
    return kExitFailedRun;
  }
  const fitting::SyntheticRecording& recording = *made;
  // Write to temporary names and rename, so that a failure leaves no half-written take.
  const std::string tmp_csv = out_path + ".partial", tmp_truth = truth_path + ".partial";
  try {
    mocap::MotiveCsvWriteOptions write;
    write.length_unit = mocap::LengthUnit::kMillimeters;
    write.file_up_axis = mocap::UpAxis::kY;
    write.decimals = 3;
    mocap::write_motive_csv(recording.take, tmp_csv, write);
    std::ofstream truth_file(tmp_truth);
    truth_file << recording.truth.dump(2) << "\n" << std::flush;  // a full disk shows here
    if (!truth_file)
      throw std::runtime_error("cannot write " + truth_path);
    truth_file.close();
    std::filesystem::rename(tmp_csv, out_path);
    std::filesystem::rename(tmp_truth, truth_path);
  } catch (const std::exception& e) {
    std::error_code ec;
    std::filesystem::remove(tmp_csv, ec);
    std::filesystem::remove(tmp_truth, ec);
    std::cerr << "clothfit synth: " << e.what() << "\n";
    return kExitFailedRun;  // the recording was made, but could not be written
  }
  std::cout << "wrote " << out_path << " (" << recording.take.frame_count() << " frames, "
            << recording.take.marker_count() << " markers) and " << truth_path << "\n";
  // The take stands (exit 0), but steps at the projection's iteration cap leave its motion short
  // of the model's own tolerances there; fitting it recovers that motion's parameters.
  const auto& simulation = recording.truth["simulation"];
  if (const long capped = simulation.value("unconverged_steps", 0L); capped > 0) {
    std::cerr << "clothfit synth: warning: " << capped
              << " steps of the simulation ended at the iteration cap, short of the solver's "
                 "tolerances; see simulation.unconverged_steps in "
              << truth_path << " and solver.max_iterations\n";
  }
  return kExitOk;
}

}  // namespace clothfit::apps
