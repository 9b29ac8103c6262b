// The take summary printed by `clothfit inspect`, as JSON and as text.
#include "mocap/take_summary.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/mocap/motive_csv_test_support.hpp"

namespace clothfit::mocap {
namespace {

TEST(TakeSummary, JsonHoldsWhatTheFileSaysAndTheGaps) {
  const Take take = testing::read_csv_text(testing::small_csv());
  const nlohmann::ordered_json j = take_summary_json(take);
  EXPECT_EQ(j["file"], "test.csv");
  EXPECT_EQ(j["format_version"], "1.23");
  EXPECT_EQ(j["take_name"], "small");
  EXPECT_TRUE(j["capture_frame_rate_hz"].is_null());
  EXPECT_EQ(j["export_frame_rate_hz"], 100.0);
  EXPECT_EQ(j["frames"], 3);
  EXPECT_EQ(j["first_frame"], 0);
  EXPECT_EQ(j["last_frame"], 2);
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 0.03);
  EXPECT_EQ(j["length_units"], "Meters");
  EXPECT_EQ(j["length_units_assumed"], false);
  EXPECT_EQ(j["up_axis"], "y");
  ASSERT_EQ(j["assets"].size(), 2u);
  EXPECT_EQ(j["assets"][1]["first_column"], 6);
  ASSERT_EQ(j["markers"].size(), 2u);
  EXPECT_EQ(j["markers"][1]["name"], "B");
  EXPECT_EQ(j["markers"][1]["gaps"], 1);
  EXPECT_EQ(j["markers"][1]["longest_gap_frames"], 1);
  EXPECT_DOUBLE_EQ(j["markers"][1]["visible_fraction"].get<double>(), 2.0 / 3.0);
  EXPECT_EQ(j.begin().key(), "file");  // keys in a fixed, readable order
}

TEST(TakeSummary, TextListsEveryMarker) {
  const Take take = testing::read_csv_text(testing::small_csv());
  std::ostringstream out;
  print_take_summary(out, take);
  const std::string text = out.str();
  EXPECT_NE(text.find("format version    1.23"), std::string::npos) << text;
  EXPECT_NE(text.find("frames            3 (frame numbers 0 to 2)"), std::string::npos) << text;
  EXPECT_NE(text.find("    B       Marker                66.7 %      1   1"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace clothfit::mocap
