// Synthetic motion: human-like, seeded paths for the hands that hold a sheet's top corners and for
// a stick, the inputs of synthetic recordings (`clothfit synth`).
//
// Building blocks:
//   - KeyframePath: quintic Hermite (minimum-jerk) interpolation between waypoints. Each segment
//   has
//     zero acceleration at both waypoints and the waypoints' velocities (zero by default: then
//     every segment is the minimum-jerk rest-to-rest profile 10τ³ − 15τ⁴ + 6τ⁵). The path is
//     constant before the first and after the last waypoint. Position, velocity and acceleration
//     are analytic.
//   - Tremor: band-limited noise, a sum of sinusoids per axis with random frequencies in a band,
//     random phases and a given RMS per axis; analytic velocity.
//   - HandPath = KeyframePath + Tremor; StickPath = a rigid segment of constant length: a centre
//     path, an axis path (normalised) and the same tremor for both ends.
//
// Generators (all randomness from std::mt19937_64 seeded with the options' seed; same seed, same
// motion; different seeds give different timing, paths, strike places and strengths):
//   - make_tablecloth_motion: two held corners lay a hanging sheet partially onto a table.
//   - make_hitting_motion: two nearly still corners and a 75 cm stick striking the sheet four
//     times.
// Frame: metres, z up, time in seconds from the recording's first frame.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <random>
#include <vector>

namespace clothfit::fitting {

struct Waypoint {
  double time_s = 0.0;
  Eigen::Vector3d position_m = Eigen::Vector3d::Zero();
  Eigen::Vector3d velocity_m_s = Eigen::Vector3d::Zero();  // velocity when passing, m/s
};

class KeyframePath {
 public:
  // A path that stays at the origin.
  KeyframePath();
  // waypoints: at least one, times strictly increasing, finite values; the first and the last
  // waypoint's velocity must be zero (the path is constant outside them). Throws
  // std::invalid_argument otherwise.
  explicit KeyframePath(std::vector<Waypoint> waypoints);
  // A smooth path through `positions` at `times` (sizes equal, ≥ 1): interior velocities by
  // central differences (Catmull–Rom), zero at the ends.
  static KeyframePath through(const std::vector<double>& times_s,
                              const std::vector<Eigen::Vector3d>& positions_m);

  Eigen::Vector3d position(double t_s) const;      // m
  Eigen::Vector3d velocity(double t_s) const;      // m/s
  Eigen::Vector3d acceleration(double t_s) const;  // m/s²
  const std::vector<Waypoint>& waypoints() const { return m_waypoints; }
  double start_time_s() const { return m_waypoints.front().time_s; }
  double end_time_s() const { return m_waypoints.back().time_s; }

 private:
  // Index of the segment [k, k+1] holding t (t strictly inside the waypoints' time range).
  std::size_t segment(double t_s) const;
  std::vector<Waypoint> m_waypoints;
};

struct TremorOptions {
  double rms_m = 0.001;  // RMS of each coordinate over a long time, m (≥ 0)
  double min_frequency_hz = 0.5;
  double max_frequency_hz = 6.0;  // > min_frequency_hz
  int components = 6;             // sinusoids per axis (≥ 1)
};

class Tremor {
 public:
  Tremor() = default;  // no tremor
  // Draws frequencies (uniform in the band), phases and relative amplitudes from `rng`, then
  // scales the amplitudes so each axis has RMS options.rms_m. Throws std::invalid_argument for
  // invalid options.
  Tremor(const TremorOptions& options, std::mt19937_64& rng);

  Eigen::Vector3d offset(double t_s) const;    // m
  Eigen::Vector3d velocity(double t_s) const;  // m/s
  // Σ amplitude · 2π f over all sinusoids per axis: a bound on |velocity(t)| per coordinate.
  Eigen::Vector3d max_speed_m_s() const;

 private:
  struct Sinusoid {
    int axis = 0;
    double amplitude_m = 0.0;
    double angular_frequency = 0.0;  // rad/s
    double phase = 0.0;              // rad
  };
  std::vector<Sinusoid> m_sinusoids;
};

// A hand's path: planned keyframes plus tremor.
struct HandPath {
  KeyframePath keyframes;
  Tremor tremor;
  Eigen::Vector3d position(double t_s) const {
    return keyframes.position(t_s) + tremor.offset(t_s);
  }
  Eigen::Vector3d velocity(double t_s) const {
    return keyframes.velocity(t_s) + tremor.velocity(t_s);
  }
};

// A rigid stick: end0 = c − L/2 · a/|a|, end1 = c + L/2 · a/|a| with c = centre + tremor and a the
// axis path (never through zero). Both ends therefore stay exactly length_m apart.
struct StickPath {
  KeyframePath centre;
  KeyframePath axis;  // direction from end0 to end1, not necessarily unit length
  Tremor tremor;
  double length_m = 0.75;

  Eigen::Vector3d centre_position(double t_s) const;
  Eigen::Vector3d centre_velocity(double t_s) const;
  Eigen::Vector3d unit_axis(double t_s) const;
  Eigen::Vector3d end0(double t_s) const;
  Eigen::Vector3d end1(double t_s) const;
  Eigen::Vector3d end0_velocity(double t_s) const;
  Eigen::Vector3d end1_velocity(double t_s) const;

 private:
  Eigen::Vector3d unit_axis_velocity(double t_s) const;  // d/dt (a/|a|), 1/s
};

// ---------------------------------------------------------------------------------------------
// Tablecloth: the sheet hangs from its two top corners above a table, its lowest part about
// start_clearance_m above the table top; the person then lowers the corners and moves them
// forward (+x, away from the table's near edge) so that about half the sheet lies on the table and
// half still hangs from the hands. The sheet's width runs along +y from corner0 to corner1 and it
// hangs in a vertical plane x = const. The table occupies x ≥ near_edge_x_m (it should reach at
// least 0.6 m beyond its near edge); its top is the plane z = top_z_m.
struct TableGeometry {
  double top_z_m = 0.75;
  double near_edge_x_m = 0.0;
};

struct TableclothMotionOptions {
  std::uint64_t seed = 1;
  double duration_s = 4.0;  // the whole recording (≥ 2.5); the corners rest at its start and end
  TableGeometry table;
  double sheet_centre_y_m = 0.0;  // y of the midpoint between the corners
  double sheet_width_m = 0.42;    // DIN A2
  double sheet_height_m = 0.594;
  double start_clearance_m = 0.10;  // lowest part of the hanging sheet above the table at t = 0
  TremorOptions tremor;
};

struct TableclothMotion {
  HandPath corner0;          // top corner at the smaller y (layout top-left)
  HandPath corner1;          // top corner at the larger y (layout top-right)
  double lay_start_s = 0.0;  // the earlier hand starts moving, s
  double lay_end_s = 0.0;    // the later hand stops moving, s
};

// Throws std::invalid_argument for invalid options. The corners stay less than sheet_width_m
// apart (at least ~5 mm less), so the held top edge never has to stretch.
TableclothMotion make_tablecloth_motion(const TableclothMotionOptions& options);

// ---------------------------------------------------------------------------------------------
// Hitting: the sheet hangs from two nearly still corners (tremor and a slight sway of a few mm) in
// the vertical plane through top_centre_m spanned by width_direction and z; a rigid stick comes
// from the side of the plane's normal n = width_direction × z, strikes strike_count times through
// the plane (wind-up, pass through the plane at the strike's speed, follow-through, retreat to a
// rest pose in front of and below the sheet), each at a different height and lateral position,
// with a different speed and approach angle.
struct HittingMotionOptions {
  std::uint64_t seed = 1;
  double duration_s = 15.0;  // 12 … 18 s (any ≥ 2 s per strike + 2 s is accepted)
  Eigen::Vector3d top_centre_m{0.0, 0.0, 1.5};     // midpoint between the held corners at rest
  Eigen::Vector3d width_direction{0.0, 1.0, 0.0};  // horizontal, corner0 → corner1
  double sheet_width_m = 0.42;
  double sheet_height_m = 0.594;
  double corner_spacing_m = 0.40;  // distance between the hands (< sheet_width_m)
  double stick_length_m = 0.75;
  int strike_count = 4;
  double min_strike_speed_m_s = 1.0;  // speed through the plane (normal component), ≥ 0.5
  double max_strike_speed_m_s = 4.0;
  TremorOptions tremor;  // the hands'; the stick gets half this RMS
};

struct Strike {
  double crossing_time_s = 0.0;  // the stick's centre crosses the sheet plane
  Eigen::Vector3d crossing_point_m = Eigen::Vector3d::Zero();  // the centre there, on the plane
  double normal_speed_m_s = 0.0;  // −velocity · n of the planned path at the crossing
  Eigen::Vector3d velocity_m_s = Eigen::Vector3d::Zero();  // planned centre velocity there
  double start_time_s = 0.0, end_time_s = 0.0;             // leaves the rest pose / is back at it
};

struct HittingMotion {
  HandPath corner0, corner1;
  StickPath stick;
  std::vector<Strike> strikes;                              // in time order
  Eigen::Vector3d plane_normal = Eigen::Vector3d::UnitX();  // n, unit; the stick rests on +n
};

// Throws std::invalid_argument for invalid options.
HittingMotion make_hitting_motion(const HittingMotionOptions& options);

}  // namespace clothfit::fitting
