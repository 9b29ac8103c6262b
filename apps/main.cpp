// clothfit: validate an inextensible cloth simulator against motion capture and fit its
// parameters. This file only dispatches to the sub-commands.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string_view>

#include "apps/commands.hpp"
#include "core/io/input_error.hpp"
#include "mocap/mocap_input_error.hpp"

namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(int, char**);
};

constexpr Command kCommands[] = {
    {"simulate", "run a scenario and write trajectories and a summary",
     clothfit::apps::run_simulate_command},
    {"inspect", "describe a Motive CSV take: assets, frames, gaps",
     clothfit::apps::run_inspect_command},
    {"synth", "make a synthetic recording with known parameters (Motive CSV + truth)",
     clothfit::apps::run_synth_command},
    {"fit", "fit alpha, delta, mu to a recording; write fit.json and per-frame errors",
     clothfit::apps::run_fit_command},
    {"sweep", "the error over a 1-D or 2-D parameter grid (CSV)",
     clothfit::apps::run_sweep_command},
    {"table", "tabulate fit.json files (list, or the paper's Tables 2 and 3)",
     clothfit::apps::run_table_command},
    {"plot", "SVG plot of a frames.csv or sweep.csv (line or heat map)",
     clothfit::apps::run_plot_command},
};

// What a command printed on standard output is part of its result (a table, a summary): when it
// could not be written (a full disk), a run that otherwise succeeded failed.
int check_standard_output(const char* command, int code) {
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed || code != clothfit::apps::kExitOk)
    return code;
  std::cerr << "clothfit " << command
            << ": writing to standard output failed (disk full?): what it printed is incomplete\n";
  return clothfit::apps::kExitFailedRun;
}

void print_usage(std::ostream& out) {
  out << "usage: clothfit <command> [options]\n\ncommands:\n";
  for (const Command& c : kCommands)
    out << "  " << c.name << std::string(12 - std::strlen(c.name), ' ') << c.summary << "\n";
  out << "\nRun `clothfit <command> --help` for the options of one command.\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    print_usage(std::cerr);
    return clothfit::apps::kExitBadInput;
  }
  const std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(std::cout);
    return clothfit::apps::kExitOk;
  }
  for (const Command& c : kCommands) {
    if (name != c.name)
      continue;
    // The commands report bad input themselves; what reaches here is a run that could not go on
    // (memory, or a defect): said in one line, with the failed run's exit code, not an abort. An
    // input error a command let through is still bad input.
    try {
      return check_standard_output(c.name, c.run(argc - 1, argv + 1));
    } catch (const clothfit::InputError& e) {
      std::cerr << "clothfit " << c.name << ": " << e.what() << "\n";
      return clothfit::apps::kExitBadInput;
    } catch (const clothfit::mocap::MocapInputError& e) {
      std::cerr << "clothfit " << c.name << ": " << e.what() << "\n";
      return clothfit::apps::kExitBadInput;
    } catch (const std::bad_alloc&) {
      std::cerr << "clothfit " << c.name << ": out of memory (is the mesh or the run too large?)\n";
    } catch (const std::exception& e) {
      std::cerr << "clothfit " << c.name << ": stopped by an unexpected error: " << e.what()
                << "\n";
    }
    return clothfit::apps::kExitFailedRun;
  }
  std::cerr << "clothfit: unknown command '" << name << "'\n\n";
  print_usage(std::cerr);
  return clothfit::apps::kExitBadInput;
}
