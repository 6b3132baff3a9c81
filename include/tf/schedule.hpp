//===- tf/schedule.hpp - tf::schedule: choosing the instruction of an op --===//
//
//   acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
//   auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(m0, k), ring);
//   auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
//
// `tf::schedule<Atom, tf::Repeat<R...>>(operands...)` is an op whose
// instruction is decided: Atom names the instruction, Repeat how many atoms.
// The Repeat is optional: it is derived from the tile and the atom's shape,
// and a written one must agree (else the site is refused, naming the derived
// value).
//
// Atoms (their types refer to their constexpr contracts, include/tf/atoms/):
//   tf::TiledMma<MmaAtom>      MMA atoms tiled over an M x N x K tile:
//                              acc (M x N, f32, rmem) += lhs (M x K) * rhs (K x N)
//   tf::nv::CopyAsyncTensor    TMA: a gmem tile -> the next slot of a tf::Ring
//                              (or an smem tile), or an smem tile -> a gmem tile
//   tf::Copy                   generic.Copy between any two of gmem/smem/rmem
//   tf::intel::amx::TileLoad   TILELOADD: a gmem tile -> AMX tile registers
//   tf::intel::amx::TileStore  TILESTORED: tile registers -> a gmem tile
//   tf::TiledMma<tf::intel::amx::Tdpbf16ps<M, N, K>>  TDPBF16PS tiles
//
// Header-only semantics (the reference the generated code is checked against):
//   TiledMma        exactly tf::matmul: products and sums in float, k increasing
//   CopyAsyncTensor load: every element of the slot from the gmem window, the
//                   elements outside the tensor's extents 0 (TMA's
//                   out-of-bounds fill); returns the slot's view.
//                   store: only the elements inside the tensor are written
//                   (TMA clips the box); returns the destination's view.
//   Copy            dst(c) = src(c); returns the destination's view.
//
// Header-level checks (static_assert, every compiler, every clangd) read the
// atom's contract but never run the matching engine; with the plugin loaded
// the contract checks are left to it (contract_facts.hpp,
// docs/language/schedule.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/generic/copy_atom.hpp"
#include "tf/atoms/intel/amx/atoms.hpp"
#include "tf/atoms/nv/sm90/copy_async_tensor_atom.hpp"
#include "tf/atoms/nv/sm90/wgmma_atom.hpp"
#include "tf/ops/buffer.hpp"
#include "tf/ops/common.hpp"
#include "tf/ops/elementwise.hpp"
#include "tf/ops/matmul.hpp"
#include "tf/schedule/contract_facts.hpp"

#include <concepts>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tf {

/// How many atoms a tiled op runs along M, N, K: Repeat<2, 1, 4> for the
/// 128 x 256 x 64 tile of examples/gemm/optimal.cpp in 64 x 256 x 16 atoms.
template <int... R> struct Repeat {
  static constexpr int rank = sizeof...(R);
  static constexpr std::int64_t counts[rank > 0 ? rank : 1] = {R...};
};

/// An MMA atom (tf::nv::sm90::Wgmma<...>) tiled over an M x N x K tile.
template <class Atom> struct TiledMma {
  using atom = Atom;
  static constexpr auto &contract = Atom::contract;
};

/// ceil(a / b) for positive b: the number of tiles of `b` along `a`.
template <std::integral A, std::integral B>
constexpr std::common_type_t<A, B> ceil_div(A a, B b) {
  return (a + b - 1) / b;
}

namespace detail {

/// No Repeat written: derive it.
struct DerivedRepeat {};

template <class R> inline constexpr bool is_repeat = false;
template <int... R> inline constexpr bool is_repeat<Repeat<R...>> = true;
template <> inline constexpr bool is_repeat<DerivedRepeat> = true;

template <class A> inline constexpr bool is_tiled_mma = false;
template <class A> inline constexpr bool is_tiled_mma<TiledMma<A>> = true;

/// The written repeat (Wm, Wn, Wk) equals the derived (Dm, Dn, Dk) (when
/// the check applies); variable templates so that g++ shows the values in
/// its note.
template <bool Applies, std::int64_t Wm, std::int64_t Wn, std::int64_t Wk,
          std::int64_t Dm, std::int64_t Dn, std::int64_t Dk>
inline constexpr bool written_repeat_is_derived =
    !Applies || (Wm == Dm && Wn == Dn && Wk == Dk);

/// The tile TM x TN x TK divides into AM x AN x AK atoms (when static).
template <bool Applies, std::int64_t TM, std::int64_t TN, std::int64_t TK,
          std::int64_t AM, std::int64_t AN, std::int64_t AK>
inline constexpr bool tile_divides_into_atoms =
    !Applies || (AM > 0 && AN > 0 && AK > 0 && TM % AM == 0 && TN % AN == 0 &&
                 TK % AK == 0);

template <class Rep> struct repeat_info {
  static constexpr bool derived = false;
  static constexpr int rank = Rep::rank;
  static constexpr std::int64_t at(int i) { return i < rank ? Rep::counts[i] : -1; }
};
template <> struct repeat_info<DerivedRepeat> {
  static constexpr bool derived = true;
  static constexpr int rank = 3;
  static constexpr std::int64_t at(int) { return -1; }
};

constexpr std::string_view storage_spelling(Storage s) {
  switch (s) {
  case Storage::gmem: return "tf::gmem";
  case Storage::smem: return "tf::smem";
  case Storage::rmem: return "tf::rmem";
  default: return "?";
  }
}

//===- TiledMma -------------------------------------------------------------===//

template <class Atom, class Rep, class C, class A, class B> struct MmaChecks {
  static constexpr auto &contract = Atom::contract;
  static constexpr const AtomParams &params() { return Atom::params; }
  using CT = typename C::element_type;
  using AT = typename A::element_type;
  using BT = typename B::element_type;

  static constexpr bool ranks = C::rank == 2 && A::rank == 2 && B::rank == 2;
  static constexpr std::int64_t tile_m = ranks ? C::static_extent(0) : -1;
  static constexpr std::int64_t tile_n = ranks ? C::static_extent(1) : -1;
  static constexpr std::int64_t tile_k = ranks ? A::static_extent(1) : -1;
  static constexpr bool static_tile = tile_m > 0 && tile_n > 0 && tile_k > 0;

  static constexpr std::int64_t am = Atom::atom_m, an = Atom::atom_n,
                                ak = Atom::atom_k;

  // Operands as the contract requires them.
  static constexpr bool acc_dtype =
      operand_takes_dtype(contract, params(), Atom::acc_operand, dtype_or_f64<CT>());
  static constexpr bool acc_storage =
      operand_takes_storage(contract, params(), Atom::acc_operand, C::storage);
  static constexpr bool lhs_dtype =
      operand_takes_dtype(contract, params(), Atom::lhs_operand, dtype_or_f64<AT>());
  static constexpr bool rhs_dtype =
      operand_takes_dtype(contract, params(), Atom::rhs_operand, dtype_or_f64<BT>());
  static constexpr bool lhs_storage =
      operand_takes_storage(contract, params(), Atom::lhs_operand, A::storage);
  static constexpr bool rhs_storage =
      operand_takes_storage(contract, params(), Atom::rhs_operand, B::storage);
  static constexpr bool operands_ok =
      acc_dtype && acc_storage && lhs_dtype && rhs_dtype && lhs_storage &&
      rhs_storage;

  static constexpr bool divides = static_tile && tile_m % am == 0 &&
                                  tile_n % an == 0 && tile_k % ak == 0;
  static constexpr std::int64_t rm = divides ? tile_m / am : 0;
  static constexpr std::int64_t rn = divides ? tile_n / an : 0;
  static constexpr std::int64_t rk = divides ? tile_k / ak : 0;

  static constexpr std::int64_t written(int i) {
    return repeat_info<Rep>::derived ? (i == 0 ? rm : i == 1 ? rn : rk)
                                     : repeat_info<Rep>::at(i);
  }
  static constexpr bool repeat_rank = repeat_info<Rep>::rank == 3;
  static constexpr bool repeat_ok =
      written_repeat_is_derived<divides && repeat_rank, written(0), written(1),
                                written(2), rm, rn, rk>;
  static constexpr bool divides_check =
      tile_divides_into_atoms<static_tile, tile_m, tile_n, tile_k, am, an, ak>;
  /// lhs is M x K and rhs K x N for an M x N acc (A's tile loaded through
  /// B's ring is not).
  static constexpr bool tile_agrees =
      static_tile && A::static_extent(0) == tile_m &&
      B::static_extent(0) == tile_k && B::static_extent(1) == tile_n;

  static constexpr Message head() {
    Message m;
    m << "tf::schedule<tf::TiledMma<" << Atom::spelling << "<...>>>: ";
    return m;
  }
  static constexpr Message operand_message(std::string_view role, Name op,
                                           DType have, Storage where,
                                           bool dtype_wrong) {
    Message m = head();
    m << role << " (contract " << contract.id.view() << " operand "
      << op.view() << ") ";
    if (dtype_wrong) {
      m << "holds " << have << ", which the atom does not take";
      if (op == Atom::acc_operand)
        m << "; accumulate in float: tf::Tensor<float, \"...\", tf::rmem>";
      else
        m << "; the atom multiplies " << Atom::dtype
          << ": tf::cast the operand or choose an atom of its dtype";
    } else {
      m << "is in " << storage_spelling(where) << ", where the atom cannot read it";
      if constexpr (requires { Atom::form; }) {
        if (op == Atom::lhs_operand)
          m << "; with form " << tf::name(Atom::form) << " lhs must be in "
            << (Atom::form == Form::SS
                    ? "tf::smem (load it through a tf::Ring) or choose tf::Form::RS"
                    : "tf::rmem");
        else if (op == Atom::rhs_operand)
          m << "; rhs must be in tf::smem (load it through a tf::Ring)";
        else
          m << "; the accumulator lives in registers: tf::rmem";
      } else {
        // AMX: every operand is in tile registers.
        m << "; load it into tile registers (tf::amx_tile) with "
             "tf::intel::amx::TileLoad";
      }
    }
    return m;
  }
  static constexpr Message agree_message() {
    Message m = head();
    m << "acc is " << tile_m << "x" << tile_n << " (M x N), lhs "
      << A::static_extent(0) << "x" << tile_k << " (M x K), rhs "
      << B::static_extent(0) << "x" << B::static_extent(1)
      << " (K x N): their M, N and K extents must agree";
    return m;
  }
  static constexpr Message divide_message() {
    Message m = head();
    m << "the tile " << tile_m << "x" << tile_n << "x" << tile_k
      << " does not decompose into " << am << "x" << an << "x" << ak
      << " atoms: ";
    if (tile_m % am != 0)
      m << "M (" << tile_m << ") is not a multiple of " << am;
    else if (tile_n % an != 0)
      m << "N (" << tile_n << ") is not a multiple of " << an;
    else
      m << "K (" << tile_k << ") is not a multiple of " << ak;
    m << "; choose tile extents that are multiples of the atom's";
    return m;
  }
  static constexpr Message repeat_message() {
    Message m;
    m << "tf::schedule: Repeat<" << written(0) << "," << written(1) << ","
      << written(2) << "> disagrees with the tile: " << tile_m << "x" << tile_n
      << "x" << tile_k << " over " << am << "x" << an << "x" << ak
      << " atoms is Repeat<" << rm << "," << rn << "," << rk << ">";
    return m;
  }
};

/// The accumulator returned: the caller's object for an lvalue, else a value.
template <class Acc>
using acc_result_t = std::conditional_t<std::is_lvalue_reference_v<Acc>, Acc,
                                        std::remove_cvref_t<Acc>>;

// The functions from tf::schedule down to its static_asserts have deduced
// return types: clangd parses headers with the bodies of other functions
// skipped, and a skipped body instantiates no check.
template <class Atom, class Rep, class C, class A, class B>
auto check_tiled_mma() {
  using K = MmaChecks<Atom, Rep, C, A, B>;
  static_assert(K::ranks,
                "tf::schedule<tf::TiledMma<...>>: acc, lhs and rhs must be "
                "matrices (rank 2): acc M x N, lhs M x K, rhs K x N");
  static_assert(!K::ranks || K::static_tile,
                "tf::schedule<tf::TiledMma<...>>: the tile's extents must be "
                "static to tile it with atoms; use a tf::Ring slot or "
                "t.tile<BM, BK>(m0, k0) for lhs and rhs and an accumulator "
                "type without '?'");
  static_assert(K::repeat_rank,
                "tf::schedule<tf::TiledMma<...>>: give one repeat per M, N "
                "and K: tf::Repeat<RM, RN, RK>");
  TF_CONTRACT_CHECK(K::acc_dtype,
                    "tf::schedule<tf::TiledMma<...>>: the accumulator (the "
                    "contract's operand C) must hold f32; declare it "
                    "tf::Tensor<float, \"...\", tf::rmem> and tf::cast the result",
                    K::operand_message("acc", Atom::acc_operand,
                                       dtype_or_f64<typename C::element_type>(),
                                       C::storage, true))
  TF_CONTRACT_CHECK(K::acc_storage,
                    "tf::schedule<tf::TiledMma<...>>: the accumulator (the "
                    "contract's operand C) must live in registers: declare it "
                    "tf::Tensor<float, \"...\", tf::rmem>",
                    K::operand_message("acc", Atom::acc_operand,
                                       dtype_or_f64<typename C::element_type>(),
                                       C::storage, false))
  TF_CONTRACT_CHECK(K::lhs_dtype,
                    "tf::schedule<tf::TiledMma<...>>: lhs (the contract's "
                    "operand A) does not hold the atom's element type; "
                    "tf::cast it or choose the atom of its dtype, e.g. "
                    "Wgmma<256, tf::f16, ...> for f16",
                    K::operand_message("lhs", Atom::lhs_operand,
                                       dtype_or_f64<typename A::element_type>(),
                                       A::storage, true))
  TF_CONTRACT_CHECK(K::rhs_dtype,
                    "tf::schedule<tf::TiledMma<...>>: rhs (the contract's "
                    "operand B) does not hold the atom's element type; "
                    "tf::cast it or choose the atom of its dtype, e.g. "
                    "Wgmma<256, tf::f16, ...> for f16",
                    K::operand_message("rhs", Atom::rhs_operand,
                                       dtype_or_f64<typename B::element_type>(),
                                       B::storage, true))
  TF_CONTRACT_CHECK(K::lhs_storage,
                    "tf::schedule<tf::TiledMma<...>>: lhs (the contract's "
                    "operand A) is in a storage the atom's form cannot read: "
                    "form SS reads it from tf::smem (load it through a "
                    "tf::Ring), form RS from tf::rmem",
                    K::operand_message("lhs", Atom::lhs_operand,
                                       dtype_or_f64<typename A::element_type>(),
                                       A::storage, false))
  TF_CONTRACT_CHECK(K::rhs_storage,
                    "tf::schedule<tf::TiledMma<...>>: rhs (the contract's "
                    "operand B) must be in tf::smem; load it through a tf::Ring",
                    K::operand_message("rhs", Atom::rhs_operand,
                                       dtype_or_f64<typename B::element_type>(),
                                       B::storage, false))
  TF_CONTRACT_CHECK(!K::static_tile || K::tile_agrees,
                    "tf::schedule<tf::TiledMma<...>>: acc (M x N), lhs "
                    "(M x K) and rhs (K x N) must agree in M, N and K",
                    K::agree_message())
  TF_CONTRACT_CHECK((tile_divides_into_atoms<K::static_tile, K::tile_m,
                                              K::tile_n, K::tile_k, K::am,
                                              K::an, K::ak>),
                    "tf::schedule<tf::TiledMma<...>>: the tile does not "
                    "decompose into atoms (M, N, K must be multiples of the "
                    "atom's 64 x n x k); choose tile extents that are "
                    "multiples of the atom's",
                    K::divide_message())
  TF_CONTRACT_CHECK((written_repeat_is_derived<K::divides && K::repeat_rank,
                                                K::written(0), K::written(1),
                                                K::written(2), K::rm, K::rn,
                                                K::rk>),
                    "tf::schedule: the written Repeat disagrees with the tile "
                    "and atom shapes (tile extent / atom extent along M, N, "
                    "K); write the derived Repeat or leave it out",
                    K::repeat_message())
}

template <class Atom, class Rep, class Acc, class L, class R>
decltype(auto) run_tiled_mma(Acc &&acc, const L &lhs, const R &rhs) {
  using C = view_t<Acc>;
  using A = view_t<L>;
  using B = view_t<R>;
  using K = MmaChecks<Atom, Rep, C, A, B>;
  constexpr bool parsed = layout_text_parsed<C> && layout_text_parsed<A> &&
                          layout_text_parsed<B>;
  if constexpr (parsed)
    check_tiled_mma<Atom, Rep, C, A, B>();
  if constexpr (parsed && K::ranks && K::static_tile && K::tile_agrees &&
                K::operands_ok && K::divides && K::repeat_ok &&
                K::repeat_rank) {
    // The atoms together compute exactly the tile's matmul: each element of
    // acc accumulates its products in float, k increasing, atom after atom.
    tf::matmul(acc, lhs, rhs);
  }
  return static_cast<acc_result_t<Acc>>(std::forward<Acc>(acc));
}

//===- Copies ---------------------------------------------------------------===//

template <class Src, class Dst> struct CopyChecks {
  using ST = typename Src::element_type;
  using DT = typename Dst::element_type;
  static constexpr bool same_type = std::is_same_v<ST, DT>;
  /// Equal ranks, or unit leading modes on the side of higher rank.
  static constexpr bool same_rank = copy_ranks_agree<Src, Dst>();
  static constexpr bool extents = copy_extents_agree<Src, Dst>();
};

/// dst(c) = src(c) for every coordinate of dst (the unit leading modes one
/// side has are coordinate 0); reads outside a window give 0 and writes
/// outside one are dropped.
template <class S, class D> void copy_elements(const S &src, const D &dst) {
  for_each_coord(extents_of(dst), [&](const auto &c) {
    dst.at(c) = src.at(unit_modes_cast<S::rank>(c)).get();
  });
}

template <class Src, class Dst> struct TmaChecks {
  static constexpr auto &contract = nv::CopyAsyncTensor::contract;
  static constexpr AtomParams load{{"direction", ParamValue::choose("load")}};
  static constexpr AtomParams store{{"direction", ParamValue::choose("store")}};
  static constexpr bool is_load =
      operand_takes_storage(contract, load, "src", Src::storage) &&
      operand_takes_storage(contract, load, "dst", Dst::storage);
  static constexpr bool is_store =
      operand_takes_storage(contract, store, "src", Src::storage) &&
      operand_takes_storage(contract, store, "dst", Dst::storage);
  static constexpr std::int64_t max_rank = operand_limit(
      contract, is_store ? store : load, is_store ? "dst" : "src",
      OperandLimit::Kind::rank_max);
  /// The global side's rank, the tensor map's.
  static constexpr int box_rank = is_store ? Dst::rank : Src::rank;
  static constexpr bool rank_ok = max_rank < 0 || box_rank <= max_rank;

  static constexpr Message direction_message() {
    Message m;
    m << "tf::schedule<tf::nv::CopyAsyncTensor>: a copy from "
      << storage_spelling(Src::storage) << " to " << storage_spelling(Dst::storage)
      << " is neither a TMA load (" << contract.id.view()
      << ": src gmem -> dst smem) nor a TMA store (src smem -> dst gmem); "
         "use tf::schedule<tf::Copy> for registers";
    return m;
  }
  static constexpr Message rank_message() {
    Message m;
    m << "tf::schedule<tf::nv::CopyAsyncTensor>: a TMA box has at most "
      << max_rank << " modes (" << contract.id.view() << "); this one has "
      << std::int64_t(box_rank) << "; copy a lower-rank view";
    return m;
  }
};

template <class Src, class Dst> auto check_tma_operands() {
  using K = CopyChecks<Src, Dst>;
  static_assert(K::same_type,
                "tf::schedule<tf::nv::CopyAsyncTensor>: source and "
                "destination element types differ; TMA does not convert: "
                "tf::cast the source, or declare the smem tile with the "
                "tensor's element type");
  static_assert(K::same_rank,
                "tf::schedule<tf::nv::CopyAsyncTensor>: source and "
                "destination ranks differ (beyond unit leading modes: a "
                "tile<1, BM, BK> of a rank-3 tensor fills a BM x BK tile)");
  TF_CONTRACT_REQUIRE(K::extents,
                      "tf::schedule<tf::nv::CopyAsyncTensor>: the box (the gmem "
                      "tile) and the smem tile have different extents; take a "
                      "gmem tile of the smem tile's extents, e.g. "
                      "a.tile<BM, BK>(m0, k0)")
  using T = TmaChecks<Src, Dst>;
  TF_CONTRACT_CHECK(T::is_load || T::is_store,
                    "tf::schedule<tf::nv::CopyAsyncTensor>: TMA copies a gmem "
                    "tile into smem (a load) or an smem tile into gmem (a "
                    "store); use tf::schedule<tf::Copy> for registers",
                    T::direction_message())
  TF_CONTRACT_CHECK(T::rank_ok,
                    "tf::schedule<tf::nv::CopyAsyncTensor>: a TMA box has at "
                    "most 5 modes; copy a lower-rank view",
                    T::rank_message())
}

template <class Src, class Dst> auto check_tma() {
  if constexpr (layout_text_parsed<Src> && layout_text_parsed<Dst>)
    check_tma_operands<Src, Dst>();
}

template <class Src, class Dst> constexpr bool tma_ok() {
  using K = CopyChecks<Src, Dst>;
  using T = TmaChecks<Src, Dst>;
  return layout_text_parsed<Src> && layout_text_parsed<Dst> && K::same_type && K::same_rank && K::extents &&
         (T::is_load || T::is_store) && T::rank_ok;
}

template <class R> inline constexpr bool is_ring = false;
template <class S, int N> inline constexpr bool is_ring<Ring<S, N>> = true;

} // namespace detail

namespace detail {

/// TMA load into the next slot of a ring: returns the slot's view.
template <class Src, class Slot, int N>
auto run_copy_async_tensor(const Src &src, Ring<Slot, N> &ring) {
  using S = view_t<Src>;
  check_tma<S, Slot>();
  Slot slot = ring.next();
  if constexpr (tma_ok<S, Slot>())
    copy_elements(view_of(src), slot);
  return slot;
}

/// TMA load into an smem tile, or store of an smem tile into a gmem tile:
/// returns the destination's view.
template <class Src, class Dst>
  requires(!is_ring<std::remove_cvref_t<Dst>>)
auto run_copy_async_tensor(const Src &src, Dst &&dst) {
  using S = view_t<Src>;
  using D = view_t<Dst>;
  check_tma<S, D>();
  const D &d = view_of(dst);
  if constexpr (tma_ok<S, D>())
    copy_elements(view_of(src), d);
  return d;
}

/// Whether `Dst` is a temporary that owns its storage (`tf::empty<T>()`
/// written in the call): the view a copy returns would outlive it.
template <class Dst>
inline constexpr bool owning_temporary =
    !std::is_lvalue_reference_v<Dst> &&
    requires(const std::remove_cvref_t<Dst> &d) { d.view(); };

/// What a copy atom's header checks read of its operands: their views,
/// whether both layouts parsed, and whether the atom's contract takes each
/// side's storage (its dtype parameter the source's element type).
template <class Atom, class Src, class Dst> struct CopyOperands {
  using S = view_t<Src>;
  using D = view_t<std::remove_cvref_t<Dst>>;
  static constexpr bool parsed = layout_text_parsed<S> && layout_text_parsed<D>;
  static constexpr AtomParams params{
      {"dtype", ParamValue::of(dtype_or_f64<typename S::element_type>())}};
  static constexpr bool src_ok =
      operand_takes_storage(Atom::contract, params, "src", S::storage);
  static constexpr bool dst_ok =
      operand_takes_storage(Atom::contract, params, "dst", D::storage);
};

template <class Src, class Dst> auto run_copy(const Src &src, Dst &&dst) {
  static_assert(!owning_temporary<Dst>,
                "tf::schedule<tf::Copy>: the destination is a temporary "
                "buffer (tf::empty<T>() in the call), which ends with the "
                "statement while the returned view lives on; declare the "
                "buffer first: auto tile = tf::empty<T>();");
  using O = CopyOperands<Copy, Src, Dst>;
  using S = typename O::S;
  using D = typename O::D;
  using K = CopyChecks<S, D>;
  constexpr bool parsed = O::parsed, src_ok = O::src_ok, dst_ok = O::dst_ok;
  static_assert(!parsed || K::same_rank,
                "tf::schedule<tf::Copy>: source and destination ranks differ "
                "(beyond unit leading modes: a tile<1, BM, BN> of a rank-3 "
                "tensor takes a BM x BN tile)");
  constexpr bool dtype_ok = operand_takes_dtype(
      Copy::contract, O::params, "dst", dtype_or_f64<typename D::element_type>());
  TF_CONTRACT_REQUIRE(!parsed || K::extents,
                      "tf::schedule<tf::Copy>: source and destination extents "
                      "differ; copy a tile of the larger one, e.g. "
                      "dst.tile<BM, BN>(m0, n0)")
  TF_CONTRACT_REQUIRE(dtype_ok,
                      "tf::schedule<tf::Copy>: source and destination element "
                      "types differ (generic.Copy does not convert); convert the "
                      "source first: tf::schedule<tf::Copy>(tf::cast<T>(src), dst)")
  TF_CONTRACT_REQUIRE(src_ok && dst_ok,
                      "tf::schedule<tf::Copy>: generic.Copy moves between gmem, "
                      "smem and rmem only; use the atom of that storage (AMX tiles: "
                      "intel.amx.TileLoad/TileStore)")
  const D &d = view_of(dst);
  if constexpr (parsed && K::same_rank && K::extents && src_ok && dst_ok &&
                dtype_ok)
    copy_elements(view_of(src), d);
  return d;
}

/// An AMX tile copy (TileLoad: a memory tile into tile registers; TileStore:
/// back): returns the destination's view.
template <class Atom, class Src, class Dst>
auto run_tile_copy(const Src &src, Dst &&dst) {
  static_assert(!owning_temporary<Dst>,
                "tf::schedule<tf::intel::amx::TileLoad>: the destination is a "
                "temporary buffer (tf::empty<T>() in the call), which ends "
                "with the statement while the returned view lives on; declare "
                "the tiles first: auto tiles = tf::empty<T>();");
  using O = CopyOperands<Atom, Src, Dst>;
  using S = typename O::S;
  using D = typename O::D;
  using K = CopyChecks<S, D>;
  constexpr bool parsed = O::parsed, src_ok = O::src_ok, dst_ok = O::dst_ok;
  constexpr bool dtype_ok = param_ok(Atom::contract, O::params, "dtype");
  static_assert(!parsed || K::same_rank,
                "tf::schedule<tf::intel::amx::TileLoad/TileStore>: source and "
                "destination ranks differ (beyond unit leading modes)");
  TF_CONTRACT_REQUIRE(!parsed || K::extents,
                      "tf::schedule<tf::intel::amx::TileLoad/TileStore>: "
                      "source and destination extents differ; copy a tile of "
                      "the tensor, e.g. a.tile<BM, BK>(m0, k0)")
  TF_CONTRACT_REQUIRE(K::same_type,
                      "tf::schedule<tf::intel::amx::TileLoad/TileStore>: "
                      "source and destination element types differ; a tile "
                      "load or store does not convert")
  TF_CONTRACT_REQUIRE(dtype_ok,
                      "tf::schedule<tf::intel::amx::TileLoad/TileStore>: the "
                      "element type is none a tile holds (bf16, f16, f32, "
                      "int8, uint8, int32)")
  TF_CONTRACT_REQUIRE(src_ok && dst_ok,
                      "tf::schedule<tf::intel::amx::TileLoad/TileStore>: "
                      "TileLoad copies memory (tf::gmem) into tile registers "
                      "(tf::amx_tile), TileStore tile registers into memory")
  const D &d = view_of(dst);
  if constexpr (parsed && K::same_rank && K::extents && K::same_type &&
                src_ok && dst_ok && dtype_ok)
    copy_elements(view_of(src), d);
  return d;
}

template <class Atom> inline constexpr bool is_atom_type = false;
template <> inline constexpr bool is_atom_type<intel::amx::TileLoad> = true;
template <> inline constexpr bool is_atom_type<intel::amx::TileStore> = true;
template <class Atom> inline constexpr bool is_tile_copy = false;
template <> inline constexpr bool is_tile_copy<intel::amx::TileLoad> = true;
template <> inline constexpr bool is_tile_copy<intel::amx::TileStore> = true;
template <class A> inline constexpr bool is_atom_type<TiledMma<A>> = true;
template <> inline constexpr bool is_atom_type<nv::CopyAsyncTensor> = true;
template <int C>
inline constexpr bool is_atom_type<nv::CopyAsyncTensorMulticast<C>> = true;

template <class Atom> inline constexpr bool is_multicast = false;
template <int C>
inline constexpr bool is_multicast<nv::CopyAsyncTensorMulticast<C>> = true;
template <> inline constexpr bool is_atom_type<Copy> = true;

} // namespace detail

/// Runs `operands` through the instruction `Atom` (see the file comment):
///   tf::schedule<tf::TiledMma<A>, tf::Repeat<RM, RN, RK>>(acc, lhs, rhs) -> acc
///   tf::schedule<tf::nv::CopyAsyncTensor>(gmem_tile, ring)    -> the slot's view
///   tf::schedule<tf::nv::CopyAsyncTensor>(src, dst)           -> dst's view
///   tf::schedule<tf::Copy>(src, dst)                          -> dst's view
template <class Atom, class Rep = detail::DerivedRepeat, class... Operands>
[[clang::annotate("tf.op.schedule")]] decltype(auto)
schedule(Operands &&...operands) {
  static_assert(detail::is_atom_type<Atom>,
                "tf::schedule<Atom>: Atom is tf::TiledMma<MmaAtom> (e.g. "
                "tf::TiledMma<tf::nv::sm90::Wgmma<256, tf::bf16, "
                "tf::Form::SS, tf::Major::K>>), tf::nv::CopyAsyncTensor, "
                "tf::intel::amx::TileLoad, tf::intel::amx::TileStore or "
                "tf::Copy");
  static_assert(detail::is_repeat<Rep>,
                "tf::schedule<Atom, Rep>: the second argument is "
                "tf::Repeat<RM, RN, RK>, or nothing to derive it");
  if constexpr (detail::is_tiled_mma<Atom>) {
    static_assert(sizeof...(Operands) == 3,
                  "tf::schedule<tf::TiledMma<...>>: give acc, lhs and rhs: "
                  "acc = tf::schedule<tf::TiledMma<A>>(acc, lhs, rhs)");
    if constexpr (sizeof...(Operands) == 3)
      return detail::run_tiled_mma<typename Atom::atom, Rep>(
          std::forward<Operands>(operands)...);
  } else {
    static_assert(std::is_same_v<Rep, detail::DerivedRepeat>,
                  "tf::schedule: tf::Repeat applies to MMA atoms "
                  "(tf::TiledMma<...>); a copy covers its operands whole, "
                  "so leave Repeat out");
    static_assert(sizeof...(Operands) == 2,
                  "tf::schedule<copy atom>: give the source and the "
                  "destination: tf::schedule<tf::Copy>(src, dst)");
    if constexpr (sizeof...(Operands) == 2) {
      if constexpr (std::is_same_v<Atom, nv::CopyAsyncTensor>)
        return detail::run_copy_async_tensor(std::forward<Operands>(operands)...);
      else if constexpr (detail::is_multicast<Atom>) {
        // Every CTA of the cluster receives the whole tile: header-only,
        // each CTA copies it. (Naming Atom::ctas instantiates the atom type,
        // whose `params` the plugin reads.)
        static_assert(Atom::ctas >= 1);
        static_assert(detail::is_ring<std::remove_cvref_t<
                          std::tuple_element_t<1, std::tuple<Operands...>>>>,
                      "tf::schedule<tf::nv::CopyAsyncTensorMulticast<C>>: a "
                      "multicast loads a gmem tile into a tf::Ring (a store "
                      "has no multicast); use tf::nv::CopyAsyncTensor");
        return detail::run_copy_async_tensor(std::forward<Operands>(operands)...);
      }
      else if constexpr (detail::is_tile_copy<Atom>)
        return detail::run_tile_copy<Atom>(std::forward<Operands>(operands)...);
      else
        return detail::run_copy(std::forward<Operands>(operands)...);
    }
  }
}

} // namespace tf
