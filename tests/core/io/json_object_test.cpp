// JsonObject and read_json_file: directions of any finite length, and the files that cannot be
// parsed named for what they are.
#include "core/io/json_object.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace clothfit {
namespace {

// The InputError `f` throws, as what() prints it.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(JsonObject, DirectionIsAnyFiniteNonzeroVector) {
  const nlohmann::json json = nlohmann::json::parse(R"({
    "big": [0, 0, 1e200], "small": [0, 0, 1e-200], "subnormal": [0, -5e-324, 0],
    "plain": [3, 0, 4], "zero": [0, 0, 0], "short": [1, 2]})");
  const JsonObject o(json, "s.json", "plane");
  // As given (obstacles::unit_vector normalises it, unit_vector_test.cpp).
  EXPECT_EQ(o.direction("big"), Eigen::Vector3d(0, 0, 1e200));
  EXPECT_EQ(o.direction("small"), Eigen::Vector3d(0, 0, 1e-200));
  EXPECT_EQ(o.direction("subnormal"), Eigen::Vector3d(0, -5e-324, 0));
  EXPECT_EQ(o.direction("plain"), Eigen::Vector3d(3, 0, 4));
  EXPECT_EQ(error_of([&] { o.direction("zero"); }),
            "s.json: plane.zero: expected a nonzero direction [x, y, z], found [0, 0, 0]");
  EXPECT_EQ(error_of([&] { o.direction("short"); }),
            "s.json: plane.short: expected an array of 3 finite numbers [x, y, z], found an array "
            "of 2 elements");
  // The element that is wrong is named (it said "found an array of 3 elements").
  const nlohmann::json points = nlohmann::json::parse(R"({"offset": [0, "a", 0],
    "keys": [[0, 0, 0], [1, null, 2]]})");
  const JsonObject p(points, "s.json", "held[0]");
  EXPECT_EQ(error_of([&] { p.vector3("offset"); }),
            "s.json: held[0].offset[1]: expected a finite number (the y of [x, y, z]), found a "
            "string");
  EXPECT_EQ(p.vector3_at("keys", 0), Eigen::Vector3d::Zero());
  EXPECT_EQ(error_of([&] { p.vector3_at("keys", 1); }),
            "s.json: held[0].keys[1][1]: expected a finite number (the y of [x, y, z]), found "
            "null");
  EXPECT_EQ(error_of([&] { o.direction("absent"); }),
            "s.json: plane.absent: required field is missing");
}

// Integers are read as written: 6.0 is 6, a huge value is out of range (never wrapped to -1 or
// rounded), a fraction is not an integer.
TEST(JsonObject, IntegersAsWritten) {
  const nlohmann::json json = nlohmann::json::parse(R"({"int": 6, "neg": -3, "float": 6.0,
    "exp": 7e0, "half": 2.5, "huge": 18446744073709551615, "big": 1e300, "over_int": 2147483648,
    "limit": 9007199254740992.0, "text": "6"})");
  EXPECT_EQ(whole_number(json["int"]), 6);
  EXPECT_EQ(whole_number(json["neg"]), -3);
  EXPECT_EQ(whole_number(json["float"]), 6);
  EXPECT_EQ(whole_number(json["exp"]), 7);
  EXPECT_EQ(whole_number(json["limit"]), 9007199254740992LL);
  EXPECT_EQ(whole_number(json["over_int"]), 2147483648LL);
  for (const char* key : {"half", "huge", "big", "text"})
    EXPECT_FALSE(whole_number(json[key]).has_value()) << key;
  EXPECT_TRUE(is_whole_number(json["huge"]));
  EXPECT_TRUE(is_whole_number(json["big"]));
  EXPECT_FALSE(is_whole_number(json["half"]));
  EXPECT_FALSE(is_whole_number(json["text"]));

  const JsonObject o(json, "s.json", "mesh");
  EXPECT_EQ(o.integer("float", Range::at_least(2)), 6);
  EXPECT_EQ(o.integer("neg"), -3);
  EXPECT_EQ(error_of([&] { o.integer("huge", Range::at_least(2)); }),
            "s.json: mesh.huge: expected an integer >= 2 and <= 2147483647, found "
            "18446744073709551615");
  EXPECT_EQ(error_of([&] { o.integer("big"); }),
            "s.json: mesh.big: expected an integer >= -2147483648 and <= 2147483647, found 1e+300");
  EXPECT_EQ(error_of([&] { o.integer("over_int"); }),
            "s.json: mesh.over_int: expected an integer >= -2147483648 and <= 2147483647, found "
            "2147483648");
  EXPECT_EQ(error_of([&] { o.integer("half", Range::at_least(2)); }),
            "s.json: mesh.half: expected an integer (a finite number >= 2), found 2.5");
  EXPECT_EQ(error_of([&] { o.integer("text"); }),
            "s.json: mesh.text: expected an integer (a finite number), found a string");
}

// A directory opens as a stream that reads nothing; it is named as a directory rather than
// reported as "unexpected end of input".
TEST(ReadJsonFile, ADirectoryIsNamedAsOne) {
  const std::string path = std::filesystem::temp_directory_path().string();
  EXPECT_EQ(error_of([&] { read_json_file(path); }),
            path + ": is a directory, expected a JSON file");
  EXPECT_EQ(error_of([] { read_json_file("/no/such/dir/s.json"); }),
            "/no/such/dir/s.json: cannot open file for reading");
}

// A key given twice in one object is refused, naming it and where its second occurrence is
// (nlohmann kept the last one silently); the same key in two objects is fine.
TEST(ReadJsonFile, AKeyGivenTwiceInOneObjectIsRefused) {
  const auto path = std::filesystem::temp_directory_path() / "json_object_test_duplicate.json";
  const auto read = [&](const std::string& text) {
    std::ofstream(path) << text;
    return error_of([&] { read_json_file(path.string()); });
  };
  EXPECT_EQ(read(R"({"a": 1, "b": {"c": 2, "d": 3, "c": 4}})"),
            path.string() +
                ":1:32: b.c: given twice in the same object (one of the two would be "
                "ignored)");
  EXPECT_EQ(read(R"({"name": "x", "held": [{"nodes": [0]}], "name": "y"})"),
            path.string() +
                ":1:41: name: given twice in the same object (one of the two would be "
                "ignored)");
  // The line is found by counting keys, not by searching for the name: strings that look like
  // keys (quotes escaped inside a value, a value followed by a colon in another string) and the
  // same name in an earlier object do not count.
  EXPECT_EQ(read("{\n  \"note\": \"\\\"name\\\": not a key\",\n  \"inner\": {\"name\": 1},\n"
                 "  \"name\": 2,\n  \"name\": 3\n}"),
            path.string() +
                ":5:3: name: given twice in the same object (one of the two would be "
                "ignored)");
  EXPECT_EQ(read(R"({"a": {"c": 1}, "b": {"c": 2}, "l": [{"c": 1}, {"c": 2}]})"), "(no error)");
  // Inside arrays the path has the element's index, and no key of an earlier element (it read
  // obstacles.name.name for obstacles[1].name, held.node.path.offset for held[1].path[1].offset).
  EXPECT_EQ(read(R"({"obstacles": [{"name": "a"}, {"type": "plane", "name": "b", "name": "c"}]})"),
            path.string() +
                ":1:62: obstacles[1].name: given twice in the same object (one of the two would "
                "be ignored)");
  EXPECT_EQ(read(R"({"held": [{"node": 0}, {"node": 2, "path": [{"time": 0}, )"
                 R"({"offset": [0, 0, 0], "time": 1, "offset": [1, 0, 0]}]}]})"),
            path.string() +
                ":1:91: held[1].path[1].offset: given twice in the same object (one of the two "
                "would be ignored)");
  EXPECT_EQ(read(R"([{"a": 1}, {"a": 1, "a": 2}])"),
            path.string() +
                ":1:21: [1].a: given twice in the same object (one of the two would be ignored)");
  EXPECT_EQ(read(R"({"a": [[1, 2], [3, {"x": 1, "x": 2}]]})"),
            path.string() +
                ":1:29: a[1][1].x: given twice in the same object (one of the two would be "
                "ignored)");
  // A syntax error is located once, by the prefix: the parser's own "at line 2, column 1"
  // disagreed with it (it counts past the last byte read).
  EXPECT_EQ(read("  \n"), path.string() +
                              ":1:3: invalid JSON (parse error: syntax error while parsing value - "
                              "unexpected end of input; expected '[', '{', or a literal)");
  EXPECT_EQ(read("{\"a\": 1,\n \"b\": }\n"),
            path.string() +
                ":2:7: invalid JSON (parse error: syntax error while parsing value - unexpected "
                "'}'; expected '[', '{', or a literal)");
  // A syntax error quotes what the parser read; a byte of another encoding (Latin-1 é) is shown
  // as \xE9, not written raw to the terminal.
  const std::string latin1 = read("{\"name\": \xE9t\xE9}");
  EXPECT_NE(latin1.find("invalid JSON ("), std::string::npos) << latin1;
  EXPECT_NE(latin1.find("\\xE9"), std::string::npos) << latin1;
  EXPECT_EQ(latin1.find('\xE9'), std::string::npos) << latin1;
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace clothfit
