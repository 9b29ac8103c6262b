// The optional positional number a bench program takes (simulated seconds, states, minutes):
// -h/--help prints the usage and exits 0; anything but a positive number prints it and exits 2.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace clothfit::bench {

inline double positive_argument(int argc, char** argv, int index, double fallback,
                                const char* usage) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::printf("%s\n", usage);
      std::exit(0);
    }
  }
  if (argc <= index)
    return fallback;
  char* end = nullptr;
  const double value = std::strtod(argv[index], &end);
  if (end == argv[index] || *end != '\0' || !(value > 0.0)) {
    std::fprintf(stderr, "%s: '%s': expected a positive number\n%s\n", argv[0], argv[index], usage);
    std::exit(2);
  }
  return value;
}

}  // namespace clothfit::bench
