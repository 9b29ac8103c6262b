// clothfit table FIT.json... [--format md|csv|json] [--layout auto|list|tablecloth|hitting]:
// the fits of `clothfit fit` as one table (paper Tables 2 and 3), on stdout or into --out FILE.
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "apps/command_line.hpp"
#include "apps/output_files.hpp"
#include "core/io/input_error.hpp"
#include "fitting/fit_table.hpp"

namespace po = boost::program_options;

namespace clothfit::apps {
namespace {

const char* kUsage =
    "usage: clothfit table FIT.json... [--format md|csv|json] [--layout LAYOUT] [--out FILE]\n\n"
    "Tabulates fit.json files written by `clothfit fit`. Layouts: list (one row per fit),\n"
    "tablecloth (paper Table 2: one row per material, mu, e and s on the low- and high-friction\n"
    "table), hitting (paper Table 3: T_rec, e, s, q of both QP solvers, alpha, delta); auto picks\n"
    "tablecloth or hitting when every fit is of that experiment, list otherwise. True values of\n"
    "synthetic recordings appear beside the fitted ones; '*' marks a parameter whose interval\n"
    "reaches a search bound (not pinned down by the recording).\n\noptions";

}  // namespace

int run_table_command(int argc, char** argv) {
  po::options_description options(kUsage);
  std::string format_name = "md", layout_name = "auto", out_path;
  std::vector<std::string> files;
  options.add_options()("help,h", "show this help")("format,f", po::value(&format_name),
                                                    "md (default), csv or json")(
      "layout,l", po::value(&layout_name), "auto (default), list, tablecloth or hitting")(
      "out,o", po::value(&out_path), "write the table to FILE instead of stdout");
  po::options_description hidden;
  hidden.add_options()("fits", po::value(&files)->composing());
  po::positional_options_description positional;
  positional.add("fits", -1);
  po::variables_map vm;
  if (auto code = parse_command_line("table", argc, argv, options, hidden, positional, &vm))
    return *code;
  if (files.empty())
    return usage_error("table", "needs at least one fit.json file");

  fitting::TableFormat format;
  if (format_name == "md" || format_name == "markdown")
    format = fitting::TableFormat::markdown;
  else if (format_name == "csv")
    format = fitting::TableFormat::csv;
  else if (format_name == "json")
    format = fitting::TableFormat::json;
  else
    return usage_error("table", "--format must be md, csv or json, not '" + format_name + "'");
  fitting::TableLayout layout;
  if (layout_name == "auto")
    layout = fitting::TableLayout::automatic;
  else if (layout_name == "list")
    layout = fitting::TableLayout::list;
  else if (layout_name == "tablecloth")
    layout = fitting::TableLayout::tablecloth;
  else if (layout_name == "hitting")
    layout = fitting::TableLayout::hitting;
  else
    return usage_error(
        "table", "--layout must be auto, list, tablecloth or hitting, not '" + layout_name + "'");

  std::string text;
  try {
    std::vector<fitting::FitReport> fits;
    for (const std::string& f : files)
      fits.push_back(fitting::read_fit_report(f));
    text = fitting::render_table(fitting::make_table(layout, fits), format);
  } catch (const InputError& e) {
    std::cerr << "clothfit table: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (out_path.empty()) {
    std::cout << text;
    return kExitOk;
  }
  if (const std::string input = input_named_as_output(out_path, files); !input.empty())
    return usage_error("table", "--out names the input '" + input + "', which it would overwrite");
  std::ofstream out(out_path);
  if (!out) {  // a missing folder, a folder of that name, no permission: the path is bad input
    std::cerr << "clothfit table: cannot open " << out_path << " for writing\n";
    return kExitBadInput;
  }
  out << text << std::flush;  // a full disk shows only at the flush
  if (!out) {
    std::cerr << "clothfit table: writing " << out_path << " failed (disk full?)\n";
    return kExitFailedRun;
  }
  return kExitOk;
}

}  // namespace clothfit::apps
