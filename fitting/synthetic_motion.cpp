#include "fitting/synthetic_motion.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace clothfit::fitting {
namespace {

// Quintic Hermite basis with zero end accelerations on τ ∈ [0, 1]:
// p(τ) = p0 h0 + v0 T h1 + v1 T h2 + p1 h3.
struct Basis {
  double h0, h1, h2, h3;
};

Basis basis(double s) {
  const double s3 = s * s * s, s4 = s3 * s, s5 = s4 * s;
  return {1 - 10 * s3 + 15 * s4 - 6 * s5, s - 6 * s3 + 8 * s4 - 3 * s5, -4 * s3 + 7 * s4 - 3 * s5,
          10 * s3 - 15 * s4 + 6 * s5};
}
Basis basis_d1(double s) {
  const double s2 = s * s, s3 = s2 * s, s4 = s3 * s;
  return {-30 * s2 + 60 * s3 - 30 * s4, 1 - 18 * s2 + 32 * s3 - 15 * s4,
          -12 * s2 + 28 * s3 - 15 * s4, 30 * s2 - 60 * s3 + 30 * s4};
}
Basis basis_d2(double s) {
  const double s2 = s * s, s3 = s2 * s;
  return {-60 * s + 180 * s2 - 120 * s3, -36 * s + 96 * s2 - 60 * s3, -24 * s + 84 * s2 - 60 * s3,
          60 * s - 180 * s2 + 120 * s3};
}

// One draw. Draws are separate statements, never two operands of one expression: C++ leaves the
// order of those to the compiler (GCC evaluates them right to left, clang left to right), and a
// seed must give the same recording whatever built the program. Where one expression had several
// draws they are now taken in the order GCC took them, last operand first, so recordings made
// before keep their bytes.
double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

// Values stratified over [lo, hi]: one uniform draw per of `count` equal bins, in random order.
std::vector<double> stratified(std::mt19937_64& rng, int count, double lo, double hi) {
  std::vector<double> values;
  const double w = (hi - lo) / count;
  for (int k = 0; k < count; ++k)
    values.push_back(lo + w * (k + uniform(rng, 0.0, 1.0)));
  std::shuffle(values.begin(), values.end(), rng);
  return values;
}

void require(bool ok, const std::string& what) {
  if (!ok)
    throw std::invalid_argument(what);
}

void validate(const TremorOptions& o) {
  require(std::isfinite(o.rms_m) && o.rms_m >= 0, "tremor rms_m must be ≥ 0");
  require(o.min_frequency_hz > 0 && o.max_frequency_hz > o.min_frequency_hz &&
              std::isfinite(o.max_frequency_hz),
          "tremor band must satisfy 0 < min_frequency_hz < max_frequency_hz");
  require(o.components >= 1, "tremor components must be ≥ 1");
}

TremorOptions scaled(TremorOptions o, double factor) {
  o.rms_m *= factor;
  return o;
}

}  // namespace

// --------------------------------------------------------------------------------------------
KeyframePath::KeyframePath() : m_waypoints{Waypoint{}} {}

KeyframePath::KeyframePath(std::vector<Waypoint> waypoints) : m_waypoints(std::move(waypoints)) {
  require(!m_waypoints.empty(), "KeyframePath needs at least one waypoint");
  for (std::size_t k = 0; k < m_waypoints.size(); ++k) {
    const Waypoint& w = m_waypoints[k];
    require(std::isfinite(w.time_s) && w.position_m.allFinite() && w.velocity_m_s.allFinite(),
            "KeyframePath waypoint " + std::to_string(k) + " is not finite");
    if (k > 0)
      require(w.time_s > m_waypoints[k - 1].time_s,
              "KeyframePath waypoint times must increase strictly");
  }
  require(
      m_waypoints.front().velocity_m_s.isZero(0.0) && m_waypoints.back().velocity_m_s.isZero(0.0),
      "KeyframePath: the first and last waypoints must have zero velocity");
}

KeyframePath KeyframePath::through(const std::vector<double>& times_s,
                                   const std::vector<Eigen::Vector3d>& positions_m) {
  require(times_s.size() == positions_m.size() && !times_s.empty(),
          "KeyframePath::through needs as many times as positions, at least one");
  std::vector<Waypoint> w(times_s.size());
  for (std::size_t k = 0; k < w.size(); ++k) {
    w[k].time_s = times_s[k];
    w[k].position_m = positions_m[k];
    if (k > 0 && k + 1 < w.size())
      w[k].velocity_m_s =
          (positions_m[k + 1] - positions_m[k - 1]) / (times_s[k + 1] - times_s[k - 1]);
  }
  return KeyframePath(std::move(w));
}

std::size_t KeyframePath::segment(double t_s) const {
  const auto it = std::upper_bound(m_waypoints.begin(), m_waypoints.end(), t_s,
                                   [](double t, const Waypoint& w) { return t < w.time_s; });
  return static_cast<std::size_t>(it - m_waypoints.begin()) - 1;
}

Eigen::Vector3d KeyframePath::position(double t_s) const {
  if (t_s <= start_time_s())
    return m_waypoints.front().position_m;
  if (t_s >= end_time_s())
    return m_waypoints.back().position_m;
  const std::size_t k = segment(t_s);
  const Waypoint& a = m_waypoints[k];
  const Waypoint& b = m_waypoints[k + 1];
  const double T = b.time_s - a.time_s;
  const Basis h = basis((t_s - a.time_s) / T);
  return h.h0 * a.position_m + h.h1 * T * a.velocity_m_s + h.h2 * T * b.velocity_m_s +
         h.h3 * b.position_m;
}

Eigen::Vector3d KeyframePath::velocity(double t_s) const {
  if (t_s <= start_time_s() || t_s >= end_time_s())
    return Eigen::Vector3d::Zero();
  const std::size_t k = segment(t_s);
  const Waypoint& a = m_waypoints[k];
  const Waypoint& b = m_waypoints[k + 1];
  const double T = b.time_s - a.time_s;
  const Basis h = basis_d1((t_s - a.time_s) / T);
  return (h.h0 * a.position_m + h.h3 * b.position_m) / T + h.h1 * a.velocity_m_s +
         h.h2 * b.velocity_m_s;
}

Eigen::Vector3d KeyframePath::acceleration(double t_s) const {
  if (t_s <= start_time_s() || t_s >= end_time_s())
    return Eigen::Vector3d::Zero();
  const std::size_t k = segment(t_s);
  const Waypoint& a = m_waypoints[k];
  const Waypoint& b = m_waypoints[k + 1];
  const double T = b.time_s - a.time_s;
  const Basis h = basis_d2((t_s - a.time_s) / T);
  return (h.h0 * a.position_m + h.h3 * b.position_m) / (T * T) +
         (h.h1 * a.velocity_m_s + h.h2 * b.velocity_m_s) / T;
}

// --------------------------------------------------------------------------------------------
Tremor::Tremor(const TremorOptions& options, std::mt19937_64& rng) {
  validate(options);
  for (int axis = 0; axis < 3; ++axis) {
    double sum_sq = 0.0;
    const std::size_t first = m_sinusoids.size();
    for (int c = 0; c < options.components; ++c) {
      Sinusoid s;
      s.axis = axis;
      s.amplitude_m = uniform(rng, 0.3, 1.0);
      s.angular_frequency =
          2 * std::numbers::pi * uniform(rng, options.min_frequency_hz, options.max_frequency_hz);
      s.phase = uniform(rng, 0.0, 2 * std::numbers::pi);
      sum_sq += 0.5 * s.amplitude_m * s.amplitude_m;
      m_sinusoids.push_back(s);
    }
    // Distinct frequencies: the RMS of a sum of sinusoids is sqrt(Σ a²/2).
    const double scale = options.rms_m / std::sqrt(sum_sq);
    for (std::size_t k = first; k < m_sinusoids.size(); ++k)
      m_sinusoids[k].amplitude_m *= scale;
  }
}

Eigen::Vector3d Tremor::offset(double t_s) const {
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  for (const Sinusoid& s : m_sinusoids)
    x[s.axis] += s.amplitude_m * std::sin(s.angular_frequency * t_s + s.phase);
  return x;
}

Eigen::Vector3d Tremor::velocity(double t_s) const {
  Eigen::Vector3d v = Eigen::Vector3d::Zero();
  for (const Sinusoid& s : m_sinusoids)
    v[s.axis] +=
        s.amplitude_m * s.angular_frequency * std::cos(s.angular_frequency * t_s + s.phase);
  return v;
}

Eigen::Vector3d Tremor::max_speed_m_s() const {
  Eigen::Vector3d v = Eigen::Vector3d::Zero();
  for (const Sinusoid& s : m_sinusoids)
    v[s.axis] += s.amplitude_m * s.angular_frequency;
  return v;
}

// --------------------------------------------------------------------------------------------
Eigen::Vector3d StickPath::centre_position(double t_s) const {
  return centre.position(t_s) + tremor.offset(t_s);
}
Eigen::Vector3d StickPath::centre_velocity(double t_s) const {
  return centre.velocity(t_s) + tremor.velocity(t_s);
}
Eigen::Vector3d StickPath::unit_axis(double t_s) const {
  return axis.position(t_s).normalized();
}
Eigen::Vector3d StickPath::unit_axis_velocity(double t_s) const {
  const Eigen::Vector3d a = axis.position(t_s);
  const double n = a.norm();
  const Eigen::Vector3d e = a / n;
  const Eigen::Vector3d da = axis.velocity(t_s);
  return (da - e * e.dot(da)) / n;
}
Eigen::Vector3d StickPath::end0(double t_s) const {
  return centre_position(t_s) - 0.5 * length_m * unit_axis(t_s);
}
Eigen::Vector3d StickPath::end1(double t_s) const {
  return centre_position(t_s) + 0.5 * length_m * unit_axis(t_s);
}
Eigen::Vector3d StickPath::end0_velocity(double t_s) const {
  return centre_velocity(t_s) - 0.5 * length_m * unit_axis_velocity(t_s);
}
Eigen::Vector3d StickPath::end1_velocity(double t_s) const {
  return centre_velocity(t_s) + 0.5 * length_m * unit_axis_velocity(t_s);
}

// --------------------------------------------------------------------------------------------
TableclothMotion make_tablecloth_motion(const TableclothMotionOptions& o) {
  require(std::isfinite(o.duration_s) && o.duration_s >= 2.5,
          "tablecloth duration_s must be ≥ 2.5");
  require(o.sheet_width_m > 0.05 && o.sheet_height_m > 0.05,
          "sheet width and height must be > 5 cm");
  require(std::isfinite(o.table.top_z_m) && std::isfinite(o.table.near_edge_x_m) &&
              std::isfinite(o.sheet_centre_y_m),
          "table geometry and sheet_centre_y_m must be finite");
  require(o.start_clearance_m >= 0 && o.start_clearance_m < 1.0,
          "start_clearance_m must be in [0, 1) m");
  validate(o.tremor);
  std::mt19937_64 rng(o.seed);
  const double W = o.sheet_width_m, H = o.sheet_height_m;

  // Shared plan: hands (spacing s) hold the sheet over the table, then lay it.
  const double spacing = W - uniform(rng, 0.015, 0.03);
  const double x0 = o.table.near_edge_x_m + uniform(rng, 0.10, 0.18);
  const double z0 = o.table.top_z_m + o.start_clearance_m + H;
  const double lay_start = uniform(rng, 0.3, 0.6);
  const double lay_end = o.duration_s - uniform(rng, 0.3, 0.6);
  const double lay = lay_end - lay_start;
  // Via point: the bottom reaches the table; the hands keep moving (down and a little forward).
  const double via_fraction = uniform(rng, 0.3, 0.45);
  const double via_drop = uniform(rng, 0.02, 0.05);  // last operand first (see uniform)
  const double via_advance = uniform(rng, 0.02, 0.06);
  const Eigen::Vector3d via(x0 + via_advance, 0.0, z0 - o.start_clearance_m - via_drop);
  // End: about half the sheet on the table (laid length ≈ forward travel), half hanging.
  const double end_height = uniform(rng, 0.42, 0.52);
  const double end_advance = uniform(rng, 0.24, 0.32);
  const Eigen::Vector3d end(x0 + end_advance, 0.0, o.table.top_z_m + H * end_height);
  const double via_speed_factor = uniform(rng, 0.8, 1.25);

  // Each hand's own deviations from the shared plan, drawn once (side −1: corner0 at the smaller
  // y, +1: corner1).
  struct HandDraw {
    double side, dt, stretch, via_jitter, via_speed;
    Eigen::Vector3d start_offset, via_offset, end_offset;
    Tremor tremor;
  };
  auto draw = [&](double side) {
    auto inward = [&](double max) { return -side * uniform(rng, 0.0, max); };
    HandDraw d;
    d.side = side;
    d.dt = uniform(rng, -0.12, 0.12);      // timing offset, s
    d.stretch = uniform(rng, 0.93, 1.07);  // duration factor (speed variation)
    d.via_jitter = uniform(rng, -0.04, 0.04);
    d.via_speed = uniform(rng, 0.9, 1.1);
    d.start_offset = {uniform(rng, -0.004, 0.004), inward(0.004), uniform(rng, -0.003, 0.003)};
    d.via_offset = {uniform(rng, -0.01, 0.01), inward(0.006), uniform(rng, -0.01, 0.01)};
    d.end_offset = {uniform(rng, -0.012, 0.012), inward(0.008), uniform(rng, -0.012, 0.012)};
    d.tremor = Tremor(o.tremor, rng);
    return d;
  };
  const HandDraw draws[2] = {draw(-1.0), draw(+1.0)};

  // desync ∈ [0, 1] scales the hands' timing differences (1: as drawn, 0: in step).
  auto hand = [&](const HandDraw& d, double desync) {
    const double y_nominal = o.sheet_centre_y_m + d.side * 0.5 * spacing;
    const Eigen::Vector3d y(0.0, y_nominal, 0.0);
    std::vector<Waypoint> w(3);
    w[0].time_s = lay_start + 0.12 + desync * d.dt;
    w[0].position_m = Eigen::Vector3d(x0, y_nominal, z0) + d.start_offset;
    const double stretch = 1.0 + desync * (d.stretch - 1.0);
    w[2].time_s = std::min(w[0].time_s + (lay - 0.24) * stretch, o.duration_s - 0.15);
    w[2].position_m = end + y + d.end_offset;
    w[1].time_s = w[0].time_s + (w[2].time_s - w[0].time_s) *
                                    std::clamp(via_fraction + desync * d.via_jitter, 0.2, 0.6);
    w[1].position_m = via + y + d.via_offset;
    Eigen::Vector3d v = via_speed_factor * (1.0 + desync * (d.via_speed - 1.0)) *
                        (w[2].position_m - w[0].position_m) / (w[2].time_s - w[0].time_s);
    v.y() = 0.0;
    // Monotone segments per coordinate (no overshoot, no backing up): with a rest-to-moving
    // quintic, |v·T| ≤ 2|Δ| (and the same sign) keeps the velocity's sign on both segments.
    for (int a = 0; a < 3; ++a) {
      const double d1 = w[1].position_m[a] - w[0].position_m[a];
      const double d2 = w[2].position_m[a] - w[1].position_m[a];
      const double T1 = w[1].time_s - w[0].time_s, T2 = w[2].time_s - w[1].time_s;
      if (d1 * d2 <= 0.0) {
        v[a] = 0.0;
        continue;
      }
      const double limit = std::min(2.0 * std::abs(d1) / T1, 2.0 * std::abs(d2) / T2);
      v[a] = std::copysign(std::min(std::abs(v[a]), limit), d1);
    }
    w[1].velocity_m_s = v;
    HandPath path;
    path.keyframes = KeyframePath(std::move(w));
    path.tremor = d.tremor;
    return path;
  };
  // The top edge must never have to stretch: desynchronise the hands less until the corners stay
  // at least 5 mm closer than the sheet's width (in step they do by construction).
  TableclothMotion motion;
  for (double desync = 1.0;; desync *= 0.5) {
    if (desync < 0.03)
      desync = 0.0;
    motion.corner0 = hand(draws[0], desync);
    motion.corner1 = hand(draws[1], desync);
    double widest = 0.0;
    for (double t = 0.0; t <= o.duration_s; t += 0.005)
      widest = std::max(widest, (motion.corner1.position(t) - motion.corner0.position(t)).norm());
    if (widest <= W - 0.005 || desync == 0.0)
      break;
  }
  motion.lay_start_s =
      std::min(motion.corner0.keyframes.start_time_s(), motion.corner1.keyframes.start_time_s());
  motion.lay_end_s =
      std::max(motion.corner0.keyframes.end_time_s(), motion.corner1.keyframes.end_time_s());
  return motion;
}

// --------------------------------------------------------------------------------------------
HittingMotion make_hitting_motion(const HittingMotionOptions& o) {
  require(o.strike_count >= 1, "strike_count must be ≥ 1");
  require(std::isfinite(o.duration_s) && o.duration_s >= 2.0 + 2.5 * o.strike_count,
          "hitting duration_s must be ≥ 2 s + 2.5 s per strike");
  require(o.top_centre_m.allFinite(), "top_centre_m must be finite");
  require(std::abs(o.width_direction.z()) < 1e-9 && std::abs(o.width_direction.norm() - 1) < 1e-9,
          "width_direction must be a horizontal unit vector");
  require(o.sheet_width_m > 0.05 && o.sheet_height_m > 0.05,
          "sheet width and height must be > 5 cm");
  require(o.corner_spacing_m > 0 && o.corner_spacing_m <= o.sheet_width_m - 0.01,
          "corner_spacing_m must be in (0, sheet_width_m − 1 cm]");
  require(o.stick_length_m > 0, "stick_length_m must be > 0");
  require(o.min_strike_speed_m_s >= 0.5 && o.max_strike_speed_m_s >= o.min_strike_speed_m_s &&
              std::isfinite(o.max_strike_speed_m_s),
          "strike speeds must satisfy 0.5 m/s ≤ min ≤ max");
  validate(o.tremor);
  std::mt19937_64 rng(o.seed);
  const Eigen::Vector3d u = o.width_direction;
  const Eigen::Vector3d z = Eigen::Vector3d::UnitZ();
  const Eigen::Vector3d n = u.cross(z);
  const double D = o.duration_s, H = o.sheet_height_m;

  HittingMotion motion;
  motion.plane_normal = n;

  // Hands: a slight common sway (a few mm) plus each hand's own drift, through random knots.
  {
    std::vector<double> knots{0.0};
    while (knots.back() < D)
      knots.push_back(knots.back() + uniform(rng, 1.0, 2.5));
    std::vector<Eigen::Vector3d> sway{Eigen::Vector3d::Zero()};
    for (std::size_t k = 1; k < knots.size(); ++k) {
      const double vertical = uniform(rng, -0.002, 0.002);  // last operand first (see uniform)
      const double normal = uniform(rng, -0.006, 0.006);
      sway.push_back(normal * n + vertical * z);
    }
    auto hand = [&](double side) {
      const Eigen::Vector3d nominal = o.top_centre_m + side * 0.5 * o.corner_spacing_m * u;
      std::vector<Eigen::Vector3d> p;
      for (std::size_t k = 0; k < knots.size(); ++k) {
        Eigen::Vector3d own = Eigen::Vector3d::Zero();
        if (k > 0) {
          const double inward = uniform(rng, 0.0, 0.003);  // last operand first (see uniform)
          const double vertical = uniform(rng, -0.002, 0.002);
          const double normal = uniform(rng, -0.003, 0.003);
          own = normal * n + vertical * z - side * inward * u;
        }
        p.push_back(nominal + sway[k] + own);
      }
      HandPath path;
      path.keyframes = KeyframePath::through(knots, p);
      path.tremor = Tremor(o.tremor, rng);
      return path;
    };
    motion.corner0 = hand(-1.0);
    motion.corner1 = hand(+1.0);
  }

  // Stick: rests in front of (+n) and below the sheet, then strikes.
  const double deg = std::numbers::pi / 180.0;
  auto rest_pose = [&](Eigen::Vector3d* centre, Eigen::Vector3d* axis) {
    const double lateral = uniform(rng, -0.1, 0.1);  // last operand first (see uniform)
    const double below = uniform(rng, 0.05, 0.15);
    const double in_front = uniform(rng, 0.35, 0.45);
    *centre = o.top_centre_m + in_front * n - (H + below) * z + lateral * u;
    const double axis_n = uniform(rng, -0.2, 0.2);
    const double axis_z = uniform(rng, 0.2, 0.6);
    const double axis_u = uniform(rng, 0.5, 1.0);
    *axis = (axis_u * u - axis_z * z + axis_n * n).normalized();
  };
  const std::vector<double> speeds =
      stratified(rng, o.strike_count, o.min_strike_speed_m_s, o.max_strike_speed_m_s);
  const std::vector<double> depths = stratified(rng, o.strike_count, 0.15, 0.50);  // below the top
  const std::vector<double> laterals =
      stratified(rng, o.strike_count, -0.3 * o.sheet_width_m, 0.3 * o.sheet_width_m);

  std::vector<Waypoint> centre(1), axis(1);
  Eigen::Vector3d rest_c, rest_a;
  rest_pose(&rest_c, &rest_a);
  centre[0].position_m = rest_c;
  axis[0].position_m = rest_a;
  auto add = [&](double t, const Eigen::Vector3d& c, const Eigen::Vector3d& a,
                 const Eigen::Vector3d& v = Eigen::Vector3d::Zero()) {
    centre.push_back(Waypoint{t, c, v});
    axis.push_back(Waypoint{t, a, Eigen::Vector3d::Zero()});
  };
  const double first = uniform(rng, 0.8, 1.2);
  const double slot = (D - 0.8 - first) / o.strike_count;
  for (int k = 0; k < o.strike_count; ++k) {
    Strike strike;
    // Where and how hard.
    const Eigen::Vector3d X = o.top_centre_m + laterals[k] * u - depths[k] * z;
    const double pitch = uniform(rng, -20, 10) * deg;  // last operand first (see uniform)
    const double heading = uniform(rng, -15, 15) * deg;
    const Eigen::Vector3d approach = (-n + std::tan(heading) * u + std::tan(pitch) * z)
                                         .normalized();  // direction of travel through the plane
    const double roll = uniform(rng, -30, 30) * deg, yaw = uniform(rng, -12, 12) * deg;
    const Eigen::Vector3d strike_axis =
        (std::cos(roll) * u + std::sin(roll) * z + std::tan(yaw) * n).normalized();
    const double normal_speed = speeds[k];
    const double speed = normal_speed / (-approach.dot(n));
    const double windup_distance = uniform(rng, 0.18, 0.30);
    const double follow_distance = uniform(rng, 0.05, 0.10);
    // With k = v·T/d = 2 the quintic segment accelerates monotonically to v at the crossing (and
    // decelerates monotonically after it): the crossing speed is the segment's peak speed.
    const double T_in = 2.0 * windup_distance / speed;
    const double T_out = 2.0 * follow_distance / speed;
    const Eigen::Vector3d windup = X - windup_distance * approach;
    const Eigen::Vector3d follow = X + follow_distance * approach;
    const double back_u = uniform(rng, -0.05, 0.05);  // last operand first (see uniform)
    const double back_z = uniform(rng, -0.05, 0.02);
    const double back_n = uniform(rng, 0.15, 0.25);
    const Eigen::Vector3d back = X + back_n * n + back_z * z + back_u * u;
    double to_windup = uniform(rng, 0.45, 0.7), hold = uniform(rng, 0.05, 0.2);
    double retreat = uniform(rng, 0.2, 0.35), to_rest = uniform(rng, 0.4, 0.7);
    // Hurry the slow phases when the strike would not fit its slot (short durations).
    const double slow = to_windup + hold + retreat + to_rest;
    const double hurry = std::min(1.0, (slot - 0.1 - T_in - T_out) / slow);
    to_windup *= hurry, hold *= hurry, retreat *= hurry, to_rest *= hurry;
    const double busy = hurry * slow + T_in + T_out;
    const double start = first + k * slot + uniform(rng, 0.0, std::max(0.0, slot - busy - 0.1));
    double t = start;
    add(t, centre.back().position_m, axis.back().position_m);  // leave the rest pose
    strike.start_time_s = t;
    add(t += to_windup, windup, strike_axis);
    add(t += hold, windup, strike_axis);
    add(t += T_in, X, strike_axis, speed * approach);
    strike.crossing_time_s = t;
    strike.crossing_point_m = X;
    strike.normal_speed_m_s = normal_speed;
    strike.velocity_m_s = speed * approach;
    add(t += T_out, follow, strike_axis);
    add(t += retreat, back, strike_axis);
    rest_pose(&rest_c, &rest_a);
    add(t += to_rest, rest_c, rest_a);
    strike.end_time_s = t;
    motion.strikes.push_back(strike);
  }
  // The first rest waypoint at t = 0 (or just before the first strike starts if that is earlier).
  centre[0].time_s = axis[0].time_s = std::min(0.0, centre[1].time_s - 0.1);
  motion.stick.centre = KeyframePath(centre);
  motion.stick.axis = KeyframePath(axis);
  motion.stick.length_m = o.stick_length_m;
  motion.stick.tremor = Tremor(scaled(o.tremor, 0.5), rng);
  return motion;
}

}  // namespace clothfit::fitting
