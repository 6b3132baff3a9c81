//===- tf/kernel.hpp - Kernel attributes' values --------------------------===//
//
// The values a kernel's attribute is written with:
//
//   [[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
//                tf::topology("thread", 384))]]
//   void gemm(...);
//
// `tf::target(id)` names the hardware the kernel is compiled for (a device or
// an architecture of targets/*.toml); `tf::topology(level, extent)`
// (tf/layout/topology.hpp) gives one level of the parallel hierarchy, the
// first one being the grid; `tf::resident_ctas(n)`, optional, asks that n
// CTAs fit on one SM at once (registers traded for warps in flight). `tf::dyn` stands for an extent given at launch:
// `tf::topology("cta", tf::dyn)` is a grid whose size `tf::launch` receives
// (`tf::grid(G)`, tf/launch.hpp).
//
// The attribute itself is read by the plugin; other compilers ignore it (g++
// warns unless given -Wno-attributes, clang unless given
// -Wno-unknown-attributes). Every value here is an ordinary constant
// expression, so the plugin evaluates it with the same code as the headers.
// Whether a target id names a known target is the plugin's check (it reads
// targets/); the headers check only its form.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/int.hpp"
#include "tf/layout/topology.hpp"
#include "tf/support/error.hpp"
#include "tf/support/name.hpp"

#include <string_view>

namespace tf {

/// An extent known only at run time, without its value yet: the `?` of the
/// text notation. `tf::topology("cta", tf::dyn)` is a grid sized at launch.
inline constexpr Int dyn = Int::dynamic();

/// The hardware a kernel is compiled for: a device (`nvidia.h200_sxm`) or an
/// architecture (`nvidia.sm90`, `intel.amx`), as targets/ names them.
struct Target {
  Name id{};

  friend constexpr bool operator==(const Target &, const Target &) = default;
};

/// The target with id `id`.
/// @pre id is `vendor.name`: dot-separated non-empty parts of lower-case
///      letters, digits and '_', at most Name::max_length characters
constexpr Result<Target> make_target(std::string_view id) {
  if (id.empty())
    return make_error(Errc::precondition,
                      "a target id is empty; write one like "
                      "\"nvidia.h200_sxm\"");
  if (!Name::fits(id))
    return make_error(Errc::capacity,
                      "a target id has at most {} characters; this one has {}",
                      static_cast<std::int64_t>(Name::max_length),
                      static_cast<std::int64_t>(id.size()));
  bool dot = false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    if (c == '.') {
      if (i == 0 || i + 1 == id.size() || id[i - 1] == '.')
        return make_error(Errc::parse,
                          "target id '{name}' has an empty part between dots",
                          Name(id));
      dot = true;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return make_error(Errc::parse,
                        "target id '{name}' may hold only lower-case letters, "
                        "digits, '_' and '.'",
                        Name(id));
  }
  if (!dot)
    return make_error(Errc::parse,
                      "target id '{name}' needs a vendor prefix, like "
                      "\"nvidia.h200_sxm\" or \"intel.amx\"",
                      Name(id));
  return Target{Name(id)};
}

/// make_target for constant expressions: a malformed id stops compilation.
constexpr Target target(std::string_view id) { return make_target(id).value(); }

/// How many CTAs of the kernel one SM must hold at once. The CUDA backend
/// caps each thread's registers so that they fit (the SM's register file
/// over count x threads per CTA): fewer registers per thread, more warps
/// with loads in flight, which is what a memory-bound kernel needs. The
/// plugin checks the count against the SM's limits on threads, CTAs and
/// shared memory. Without it, one CTA per SM is all the kernel asks for
/// (every register a thread can have). Header-only execution ignores it.
struct ResidentCtas {
  std::int64_t count = 1;

  friend constexpr bool operator==(const ResidentCtas &,
                                   const ResidentCtas &) = default;
};

/// At least `count` CTAs resident per SM.
/// @pre count > 0
constexpr Result<ResidentCtas> make_resident_ctas(std::int64_t count) {
  if (count <= 0)
    return make_error(Errc::out_of_range,
                      "tf::resident_ctas needs a positive count of CTAs, "
                      "not {}",
                      count);
  return ResidentCtas{count};
}

/// make_resident_ctas for constant expressions: a count that is not
/// positive stops compilation.
constexpr ResidentCtas resident_ctas(std::int64_t count) {
  return make_resident_ctas(count).value();
}

} // namespace tf
