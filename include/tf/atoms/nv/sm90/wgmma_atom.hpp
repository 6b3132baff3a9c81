//===- tf/atoms/nv/sm90/wgmma_atom.hpp - The WGMMA atom type --------------===//
//
// The C++ type users name in tf::schedule to choose WGMMA (decision (1) of
// examples/gemm/optimal.cpp):
//
//   using Wgmma = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K>;
//   acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
//
// Its template arguments are the contract's parameters n, dtype, form,
// a_major, b_major (b_major defaults to MN as in the contract; the H200
// GEMM's B tile ((4,2,8),(4,64)):((4096,512,64),(1024,1)) | Swizzle(3,4,3) is
// N-major). Every fact -- the allowed values, the derived k, the atom's
// extents 64 x n x k, the operands' storages and dtypes -- is read from the
// constexpr contract tf::atoms::nv::sm90::wgmma (wgmma.hpp), the single
// source; `tf facts nv.sm90.Wgmma` prints it.
//
// tf::Form and tf::Major are the contract's choice types "Form" and "Major".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/nv/sm90/wgmma.hpp"
#include "tf/element.hpp"
#include "tf/schedule/contract_facts.hpp"

#include <cstdint>
#include <string_view>

namespace tf {

/// Where an MMA reads A: both operands from shared memory (SS) or A from
/// registers (RS). The contract's choice type "Form".
enum class Form : std::uint8_t { SS, RS };

/// Which extent of an operand is contiguous: M (or N) for MN, K for K. The
/// contract's choice type "Major".
enum class Major : std::uint8_t { MN, K };

constexpr std::string_view name(Form f) { return f == Form::SS ? "SS" : "RS"; }
constexpr std::string_view name(Major m) { return m == Major::MN ? "MN" : "K"; }

namespace detail {
/// The DType of `T`, or f64 for a type that is no element (the atom's own
/// check reports that).
template <class T> constexpr DType dtype_or_f64() {
  if constexpr (Element<T>)
    return dtype_of<T>;
  else
    return DType::f64;
}
} // namespace detail

} // namespace tf

namespace tf::nv::sm90 {

/// wgmma.mma_async m64nNkK: one warpgroup computes a 64 x N x K block,
/// K derived from the element type (16 for bf16/f16).
template <int N, class T, tf::Form F, tf::Major AMajor,
          tf::Major BMajor = tf::Major::MN>
struct Wgmma {
  /// The contract this type chooses (a `const Contract &`). Declared with
  /// `auto &`: nvcc rejects a `const Contract &` static member of a class
  /// template ("has already been initialized"); every atom type does the same.
  static constexpr auto &contract = tf::atoms::nv::sm90::wgmma;
  static constexpr std::string_view spelling = "tf::nv::sm90::Wgmma";
  using element_type = T;
  static constexpr DType dtype = detail::dtype_or_f64<T>();
  static constexpr int n = N;
  static constexpr tf::Form form = F;
  static constexpr tf::Major a_major = AMajor;
  static constexpr tf::Major b_major = BMajor;

  /// The parameters as the contract names them, with the derived ones (k).
  static constexpr detail::AtomParams params =
      detail::with_derived(contract, detail::AtomParams{
          {"n", ParamValue::of(std::int64_t(N))},
          {"dtype", ParamValue::of(dtype)},
          {"form", ParamValue::choose(Name(tf::name(F)))},
          {"a_major", ParamValue::choose(Name(tf::name(AMajor)))},
          {"b_major", ParamValue::choose(Name(tf::name(BMajor)))},
      });

  /// One instance's M x N x K, from the contract's atom shape (64, n, k).
  static constexpr std::int64_t atom_m = detail::atom_extent(contract, params, 0);
  static constexpr std::int64_t atom_n = detail::atom_extent(contract, params, 1);
  static constexpr std::int64_t atom_k = detail::atom_extent(contract, params, 2);

  /// The operands of an MMA contract: A (lhs), B (rhs), C (the accumulator).
  static constexpr Name lhs_operand = "A", rhs_operand = "B", acc_operand = "C";

private:
  static constexpr const ParamDef &n_def() { return *detail::find_param(contract, "n"); }
  // The literal messages below quote the contract's range of n; this keeps
  // them true (the check itself reads the contract).
  static_assert(n_def().lo == 8 && n_def().hi == 256 && n_def().step == 8,
                "tf::nv::sm90::Wgmma: the contract's range of n changed; "
                "update the messages of wgmma_atom.hpp");

  static constexpr detail::Message n_message() {
    detail::Message m;
    m << "tf::nv::sm90::Wgmma<" << std::int64_t(N)
      << ", ...>: n must satisfy " << n_def().lo << " <= n <= " << n_def().hi
      << " and n % " << n_def().step << " == 0 (contract " << contract.id.view()
      << ", parameter n); use e.g. Wgmma<" << n_def().hi << ", ...>";
    return m;
  }
  static constexpr detail::Message choice_message(std::string_view what,
                                                  std::string_view value) {
    detail::Message m;
    m << "tf::nv::sm90::Wgmma: " << what << " = " << value
      << " is not allowed with dtype = " << dtype << ", form = "
      << tf::name(F) << " by contract " << contract.id.view()
      << "; `tf facts nv.sm90.Wgmma` lists the allowed values";
    return m;
  }

  TF_CONTRACT_REQUIRE(Element<T>,
                      "tf::nv::sm90::Wgmma: the second argument is the element type "
                      "of A and B: tf::bf16, tf::f16, tf::fp8e4m3, tf::fp8e5m2 or "
                      "tf::tf32")
  TF_CONTRACT_CHECK(detail::param_ok(contract, params, "n"),
                    "tf::nv::sm90::Wgmma: N must be a multiple of 8 in 8..256 "
                    "(contract nv.sm90.Wgmma, parameter n); use e.g. "
                    "Wgmma<256, ...>",
                    n_message())
  TF_CONTRACT_CHECK(!Element<T> || detail::param_ok(contract, params, "dtype"),
                    "tf::nv::sm90::Wgmma: the element type is not one WGMMA "
                    "multiplies; use tf::bf16, tf::f16, tf::fp8e4m3, "
                    "tf::fp8e5m2 or tf::tf32 (accumulation is always f32)",
                    choice_message("dtype", tf::name(dtype)))
  TF_CONTRACT_CHECK(!Element<T> || detail::param_ok(contract, params, "a_major"),
                    "tf::nv::sm90::Wgmma: this a_major is not allowed for the "
                    "dtype and form (A from registers, fp8 and tf32 are "
                    "K-major only); use tf::Major::K",
                    choice_message("a_major", tf::name(AMajor)))
  TF_CONTRACT_CHECK(!Element<T> || detail::param_ok(contract, params, "b_major"),
                    "tf::nv::sm90::Wgmma: this b_major is not allowed for the "
                    "dtype (fp8 and tf32 are K-major only); use tf::Major::K",
                    choice_message("b_major", tf::name(BMajor)))
};

} // namespace tf::nv::sm90
