#include "mocap/layout_suggestion.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "mocap/mocap_input_error.hpp"

namespace clothfit::mocap {
namespace {

// A marker grid must be flat to this ratio: rms distance from the plane / rms spread along the
// plane's second axis.
constexpr double kMaxFlatness = 0.5;
// Consecutive rows (columns) must be separated by at least this fraction of their mean spacing.
constexpr double kMinSeparation = 0.25;
// cos 45°: a plane whose normal is closer than this to z lies flat, otherwise it hangs.
constexpr double kLyingCosine = 0.7071067811865476;

[[noreturn]] void fail(const Take& take, const std::string& problem) {
  throw MocapInputError({take.info().source, 0, 0, "suggest-layout"}, problem);
}

// `axis` with the sign that makes its largest-magnitude component among (x, y) — or z when
// `prefer_z` — positive.
Eigen::Vector3d orient(const Eigen::Vector3d& axis, bool prefer_z) {
  if (prefer_z)
    return axis.z() < 0 ? Eigen::Vector3d(-axis) : axis;
  const double key = std::abs(axis.x()) >= std::abs(axis.y()) ? axis.x() : axis.y();
  return key < 0 ? Eigen::Vector3d(-axis) : axis;
}

// Sorts points into `rows` rows along `row_axis` (row 0 at its largest coordinate) and columns
// along `column_axis` (column 0 at its smallest); returns the order (row-major) or nothing when
// rows or columns are not separated.
std::optional<std::vector<std::size_t>> assign_grid(const std::vector<Eigen::Vector3d>& points,
                                                    int rows, int columns,
                                                    const Eigen::Vector3d& row_axis,
                                                    const Eigen::Vector3d& column_axis) {
  const std::size_t n = points.size();
  std::vector<double> r(n);
  std::vector<double> c(n);
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = points[i].dot(row_axis);
    c[i] = points[i].dot(column_axis);
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return r[a] > r[b]; });
  const auto nc = static_cast<std::size_t>(columns);
  const auto nr = static_cast<std::size_t>(rows);
  for (std::size_t row = 0; row < nr; ++row) {
    std::sort(order.begin() + static_cast<std::ptrdiff_t>(row * nc),
              order.begin() + static_cast<std::ptrdiff_t>((row + 1) * nc),
              [&](std::size_t a, std::size_t b) { return c[a] < c[b]; });
  }
  // Separation of consecutive groups: min over the upper group minus max over the lower one.
  auto separated = [&](std::size_t groups, std::size_t members, auto member_of,
                       const std::vector<double>& coordinate, double sign) {
    if (groups < 2)
      return true;
    std::vector<double> lo(groups, std::numeric_limits<double>::infinity());
    std::vector<double> hi(groups, -std::numeric_limits<double>::infinity());
    std::vector<double> mean(groups, 0.0);
    for (std::size_t g = 0; g < groups; ++g) {
      for (std::size_t k = 0; k < members; ++k) {
        const double v = sign * coordinate[member_of(g, k)];
        lo[g] = std::min(lo[g], v);
        hi[g] = std::max(hi[g], v);
        mean[g] += v / static_cast<double>(members);
      }
    }
    const double spacing = (mean[groups - 1] - mean[0]) / static_cast<double>(groups - 1);
    if (!(spacing > 0.0))
      return false;
    for (std::size_t g = 0; g + 1 < groups; ++g) {
      if (lo[g + 1] - hi[g] < kMinSeparation * spacing)
        return false;
    }
    return true;
  };
  // Rows: along -r (row 0 has the largest r); columns: along +c.
  const bool rows_ok = separated(
      nr, nc, [&](std::size_t g, std::size_t k) { return order[g * nc + k]; }, r, -1.0);
  const bool columns_ok = separated(
      nc, nr, [&](std::size_t g, std::size_t k) { return order[k * nc + g]; }, c, 1.0);
  if (!rows_ok || !columns_ok)
    return std::nullopt;
  return order;
}

}  // namespace

MarkerLayout suggest_layout(const Take& take, int rows, int columns, std::size_t frame) {
  if (rows < 1 || columns < 1)
    fail(take, "expected a grid of at least 1 x 1 markers");
  if (frame >= take.frame_count()) {
    fail(take, "frame " + std::to_string(frame) + " is not in the take (" +
                   std::to_string(take.frame_count()) + " frames)");
  }
  // Candidate markers: visible `Marker` assets that do not belong to a rigid body.
  std::vector<std::size_t> markers;
  std::vector<Eigen::Vector3d> points;
  for (std::size_t m = 0; m < take.marker_count(); ++m) {
    const MarkerInfo& info = take.marker(m);
    if (info.kind != MarkerKind::kMarker || !take.visible(frame, m))
      continue;
    const std::size_t colon = info.name.find(':');
    if (colon != std::string::npos && take.find_rigid_body(info.name.substr(0, colon)))
      continue;
    markers.push_back(m);
    points.push_back(take.position(frame, m));
  }
  const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(columns);
  const std::string grid = std::to_string(rows) + " x " + std::to_string(columns);
  if (markers.size() != n) {
    std::string names;
    for (std::size_t i = 0; i < markers.size() && i < 10; ++i) {
      names += (i ? ", '" : "'") + take.marker(markers[i]).name + "'";
    }
    if (markers.size() > 10)
      names += ", ...";
    fail(take, "frame " + std::to_string(take.frame_number(frame)) + " has " +
                   std::to_string(markers.size()) + " visible markers (not counting rigid-body " +
                   "markers)" + (names.empty() ? "" : ": " + names) + "; a " + grid +
                   " grid needs " + std::to_string(n));
  }
  MarkerLayout layout;
  layout.rows = rows;
  layout.columns = columns;
  if (n == 1) {
    layout.names.push_back(take.marker(markers[0]).name);
    return layout;
  }

  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  for (const Eigen::Vector3d& p : points)
    centroid += p;
  centroid /= static_cast<double>(n);
  Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
  for (Eigen::Vector3d& p : points) {
    p -= centroid;
    covariance += p * p.transpose();
  }
  covariance /= static_cast<double>(n);
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(covariance);
  const Eigen::Vector3d lambda = eigen.eigenvalues().cwiseMax(0.0);  // ascending
  const Eigen::Vector3d normal = eigen.eigenvectors().col(0);
  const Eigen::Vector3d e1 = eigen.eigenvectors().col(2);
  const Eigen::Vector3d e2 = eigen.eigenvectors().col(1);
  if (!(lambda[2] > 0.0))
    fail(take, "the markers all sit at one point");
  const bool line = rows == 1 || columns == 1;
  if (!line && std::sqrt(lambda[0]) > kMaxFlatness * std::sqrt(lambda[1])) {
    fail(take, "the markers do not lie roughly in a plane (rms distance from the best plane " +
                   std::to_string(std::sqrt(lambda[0])) + " m, rms spread across it " +
                   std::to_string(std::sqrt(lambda[1])) + " m)");
  }

  if (line) {
    // One line of markers: ordered along its principal axis (top first when it is more vertical
    // than horizontal, otherwise from the smallest x, or y).
    const bool vertical = std::abs(e1.z()) > kLyingCosine;
    const Eigen::Vector3d axis = orient(e1, vertical);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return vertical ? points[a].dot(axis) > points[b].dot(axis)
                      : points[a].dot(axis) < points[b].dot(axis);
    });
    for (std::size_t i : order)
      layout.names.push_back(take.marker(markers[i]).name);
    return layout;
  }

  // Grid directions from nearest neighbours, averaged modulo 90° in the plane (e1, e2).
  double sum_cos = 0.0;
  double sum_sin = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    double best = std::numeric_limits<double>::infinity();
    Eigen::Vector3d to_nearest = Eigen::Vector3d::Zero();
    for (std::size_t j = 0; j < n; ++j) {
      const double d = (points[j] - points[i]).squaredNorm();
      if (j != i && d < best) {
        best = d;
        to_nearest = points[j] - points[i];
      }
    }
    const double angle = std::atan2(to_nearest.dot(e2), to_nearest.dot(e1));
    sum_cos += std::cos(4.0 * angle);
    sum_sin += std::sin(4.0 * angle);
  }
  const double theta = 0.25 * std::atan2(sum_sin, sum_cos);
  const Eigen::Vector3d axis_a = std::cos(theta) * e1 + std::sin(theta) * e2;
  const Eigen::Vector3d axis_b = -std::sin(theta) * e1 + std::cos(theta) * e2;

  const bool hanging = std::abs(normal.z()) < kLyingCosine;
  Eigen::Vector3d row_axis;
  Eigen::Vector3d column_axis;
  if (hanging) {
    const bool a_vertical = std::abs(axis_a.z()) >= std::abs(axis_b.z());
    row_axis = orient(a_vertical ? axis_a : axis_b, true);
    column_axis = orient(a_vertical ? axis_b : axis_a, false);
  } else {
    const bool a_along_y = std::abs(axis_a.y()) >= std::abs(axis_b.y());
    row_axis = orient(a_along_y ? axis_a : axis_b, false);
    column_axis = orient(a_along_y ? axis_b : axis_a, false);
  }
  std::optional<std::vector<std::size_t>> order =
      assign_grid(points, rows, columns, row_axis, column_axis);
  if (!order) {
    const bool transposed =
        rows != columns && assign_grid(points, rows, columns, column_axis, row_axis).has_value();
    if (transposed && hanging) {
      fail(take, "the hanging markers form a grid of " + std::to_string(columns) + " rows x " +
                     std::to_string(rows) + " columns (rows are horizontal); ask for " +
                     std::to_string(columns) + "x" + std::to_string(rows));
    }
    if (transposed)
      order = assign_grid(points, rows, columns, column_axis, row_axis);
  }
  if (!order) {
    fail(take, "the " + std::to_string(n) + " visible markers do not form a " + grid +
                   " grid (rows and columns must be separated by at least a quarter of their "
                   "spacing)");
  }
  for (std::size_t i : *order)
    layout.names.push_back(take.marker(markers[i]).name);
  return layout;
}

}  // namespace clothfit::mocap
