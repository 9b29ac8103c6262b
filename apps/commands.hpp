// The sub-commands of the `clothfit` program. Each one parses its own options (argv[0] is the
// sub-command's name) and returns the process exit code below.
#pragma once

namespace clothfit::apps {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailedRun = 1;  // the input was fine but the run failed
inline constexpr int kExitBadInput = 2;   // bad command line, file or scenario

int run_simulate_command(int argc, char** argv);
int run_inspect_command(int argc, char** argv);
int run_synth_command(int argc, char** argv);
int run_fit_command(int argc, char** argv);
int run_sweep_command(int argc, char** argv);
int run_table_command(int argc, char** argv);
int run_plot_command(int argc, char** argv);

}  // namespace clothfit::apps
