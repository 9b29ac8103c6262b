// `clothfit inspect TAKE.csv... [--json] [--suggest-layout RxC] [--up y|z] [--units-if-absent U]`:
// describes Motive CSV takes (format version, take name, frame rates, frames, duration, units,
// assets, and per marker the visible fraction, the number of gaps and the longest gap) and can
// guess the marker layout of a sheet from its first frame.
#include <boost/program_options.hpp>
#include <charconv>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "mocap/layout_suggestion.hpp"
#include "mocap/marker_layout.hpp"
#include "mocap/mocap_input_error.hpp"
#include "mocap/motive_csv_reader.hpp"
#include "mocap/take_summary.hpp"

namespace clothfit::apps {
namespace {

namespace po = boost::program_options;

struct GridSize {
  int rows = 0;
  int columns = 0;
};

// The most rows or columns of a suggested layout, as of a layout file (mocap::MarkerLayout).
constexpr long long kMaxLayoutSide = 100000;

// "4x5" -> {4, 5}; empty when the text is not two whole numbers from 2 to kMaxLayoutSide joined
// by x (a recording scenario's layout is at least 2 × 2; a single row or column has no second
// direction, and the guess came out scrambled).
std::optional<GridSize> parse_grid_size(const std::string& text) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos)
    return std::nullopt;
  long long rows = 0, columns = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(begin, begin + x, rows);
  const auto c = std::from_chars(begin + x + 1, end, columns);
  if (r.ec != std::errc() || r.ptr != begin + x || c.ec != std::errc() || c.ptr != end ||
      rows < 2 || columns < 2 || rows > kMaxLayoutSide || columns > kMaxLayoutSide) {
    return std::nullopt;
  }
  return GridSize{static_cast<int>(rows), static_cast<int>(columns)};
}

int bad_input(const std::string& message) {
  std::cerr << "clothfit inspect: " << message << "\n";
  return kExitBadInput;
}

// One take read, with its suggested layout when asked. Throws MocapInputError when the take does
// not read or the layout cannot be guessed.
struct Described {
  mocap::Take take;
  std::optional<mocap::MarkerLayout> layout;
};

Described describe(const std::string& path, const mocap::MotiveCsvReadOptions& read,
                   const std::optional<GridSize>& grid) {
  Described d{mocap::read_motive_csv(path, read), std::nullopt};
  if (grid)
    d.layout = mocap::suggest_layout(d.take, grid->rows, grid->columns);
  return d;
}

nlohmann::ordered_json to_json(const Described& d) {
  nlohmann::ordered_json j = mocap::take_summary_json(d.take);
  if (d.layout)
    j["suggested_layout"] = mocap::marker_layout_to_json(*d.layout);
  return j;
}

void print(std::ostream& out, const Described& d) {
  mocap::print_take_summary(out, d.take);
  if (d.layout) {
    out << "\nsuggested layout (from frame " << d.take.first_frame_number()
        << "; check it, then paste it into the scenario):\n"
        << mocap::format_marker_layout_json(*d.layout);
  }
}

}  // namespace

int run_inspect_command(int argc, char** argv) {
  std::vector<std::string> take_paths;
  std::string up = "y";
  std::string units_if_absent = "m";
  std::string layout_size;
  po::options_description options(
      "usage: clothfit inspect TAKE.csv... [options]\n\n"
      "Describes OptiTrack Motive CSV exports (format 1.2x): format version, take name,\n"
      "frame rates, frames, duration, units, assets, and per marker the visible fraction,\n"
      "the number of gaps and the longest gap (in frames). Several takes are described in\n"
      "turn; one that does not read is reported on stderr and the others are still described.\n"
      "With --json one take prints an object, several an array of them in the order given\n"
      "(a take that did not read: {\"file\", \"error\"}). Exit code 0 when every take reads,\n"
      "2 for bad input (the error names the file, line and column).\n\noptions");
  // clang-format off
  options.add_options()
      ("help,h", "print this help and exit")
      ("json", "print the description as JSON instead of text")
      ("suggest-layout", po::value<std::string>(&layout_size)->value_name("RxC"),
       "also guess the marker layout of an R x C marker grid (e.g. 4x5) from frame 0 "
       "(the markers of a sheet lying or hanging roughly flat) and print the layout JSON to "
       "paste into a scenario")
      ("up", po::value<std::string>(&up)->default_value("y")->value_name("y|z"),
       "up axis of the file's coordinates (Motive exports y up unless its axis convention was "
       "changed); positions are reported z up")
      ("units-if-absent", po::value<std::string>(&units_if_absent)->default_value("m")
           ->value_name("m|cm|mm"),
       "length unit of the coordinates when the file has no `Length Units` field (exports "
       "before format 1.23)");
  // clang-format on
  po::options_description hidden;
  hidden.add_options()("take", po::value<std::vector<std::string>>(&take_paths));
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("take", -1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return bad_input(std::string(e.what()) + " (see clothfit inspect --help)");
  }
  if (vm.count("help")) {
    std::cout << options << "\n";
    return kExitOk;
  }
  if (take_paths.empty())
    return bad_input("expected a take: clothfit inspect TAKE.csv...");

  mocap::MotiveCsvReadOptions read;
  const std::optional<mocap::UpAxis> up_axis = mocap::parse_up_axis(up);
  if (!up_axis)
    return bad_input("--up: expected y or z, got '" + up + "'");
  read.file_up_axis = *up_axis;
  const std::optional<mocap::LengthUnit> unit = mocap::parse_length_unit(units_if_absent);
  if (!unit) {
    return bad_input("--units-if-absent: expected m, cm or mm, got '" + units_if_absent + "'");
  }
  read.length_unit_if_absent = *unit;
  std::optional<GridSize> grid;
  if (vm.count("suggest-layout")) {
    grid = parse_grid_size(layout_size);
    if (!grid) {
      return bad_input("--suggest-layout: expected ROWSxCOLUMNS such as 4x5, each from 2 to " +
                       std::to_string(kMaxLayoutSide) + ", got '" + layout_size + "'");
    }
  }

  // Every take in turn; one that does not read is reported and the others still described. One
  // take with --json prints its object (nothing when it does not read), several an array.
  const bool json = vm.count("json") > 0;
  int status = kExitOk;
  nlohmann::ordered_json takes = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < take_paths.size(); ++k) {
    try {
      const Described d = describe(take_paths[k], read, grid);
      if (json) {
        takes.push_back(to_json(d));
      } else {
        std::cout << (k > 0 ? "\n" : "");
        print(std::cout, d);
        std::cout << std::flush;  // before the next take's error, if any, on stderr
      }
    } catch (const mocap::MocapInputError& e) {
      status = bad_input(e.what());
      takes.push_back({{"file", take_paths[k]}, {"error", e.what()}});
    }
  }
  if (json && takes.size() > 1)
    std::cout << takes.dump(2) << "\n";
  else if (json && status == kExitOk)
    std::cout << takes.front().dump(2) << "\n";
  return status;
}

}  // namespace clothfit::apps
