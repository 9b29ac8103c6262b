// What `clothfit fit` writes of the run at its optimum, frame by frame (the fit itself is tested
// on synthetic recordings in fit_recovery_test.cpp).
#include "fitting/parameter_fitter.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace clothfit::fitting {
namespace {

// frames.csv: a row per scored frame n = 1 … at t = n·Δt; a frame with no visible marker has
// empty e_n and s_n (not a number that would enter a mean).
TEST(ParameterFitter, FramesCsvHasARowPerScoredFrameAndLeavesInvisibleFramesEmpty) {
  Evaluation e;
  e.frames = {{0.0125, 0.0025, 9}, {0.0, 0.0, 0}, {0.02, 0.004, 8}};
  e.contact = {false, true, true};
  const auto path = std::filesystem::temp_directory_path() / "clothfit_frames_csv_test.csv";
  write_frames_csv(path.string(), e, 0.01);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "frame,time_s,error_m,spread_m,visible_markers,contact\n"
            "1,0.0100,0.0125,0.0025,9,0\n"
            "2,0.0200,,,0,1\n"
            "3,0.0300,0.02,0.004,8,1\n");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace clothfit::fitting
