//===- plugin/lower/RegisterFragment.h - A fragment's registers -*- C++ -*-===//
//
// Where each register of each thread of an MMA atom's register operand holds
// its element: (thread, register) -> (row, column) of the operand's atom
// tile. Two pieces of contract data say it, and nothing else: the fragment
// the contract engine recorded for the site's operand (a ShardLayout over
// the atom's execution mesh: which thread holds which element) and the
// register numbering beside the contract's fragment pattern
// (LayoutPattern::register_strides: which of a thread's registers holds
// it). For the WGMMA accumulator (tf/atoms/nv/sm90/wgmma.hpp) that is PTX's
// d[4 j + 2 h + e]; the CUDA backend's staged store
// (backend/cuda_sm90/AccumulatorStore.h) and the interpreter's epilogue
// (interp/Epilogue.cpp) read the map from the lowered store, and
// runtime/tools/gen_wgmma.cpp writes the runtime's accumulator_coord from
// the same contract data. test/lower/RegisterFragmentTest.cpp checks all
// three against PTX's formula.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_REGISTERFRAGMENT_H
#define TF_PLUGIN_LOWER_REGISTERFRAGMENT_H

#include "tf/contract/match.hpp"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace tf::lower {

/// An element of an atom's operand tile: row and column.
struct FragmentCoord {
  std::int64_t Row = 0, Col = 0;
  friend bool operator==(const FragmentCoord &,
                         const FragmentCoord &) = default;
};

/// The register fragment of one atom's operand, thread by thread.
class RegisterFragment {
public:
  /// The fragment of operand \p Operand that \p Match (a match of contract
  /// \p C) recorded, numbered as the contract's pattern numbers registers.
  /// Fails when the match recorded no register fragment for it, or the
  /// numbering is not one register per local element.
  static llvm::Expected<RegisterFragment>
  fromMatch(const Contract &C, const MatchReport &Match,
            llvm::StringRef Operand);

  /// Threads of the atom's execution mesh, counted from its first.
  std::int64_t threads() const {
    return static_cast<std::int64_t>(ThreadElement.size());
  }
  /// Registers per thread.
  std::int64_t registers() const {
    return static_cast<std::int64_t>(RegisterElement.size());
  }
  /// The atom tile's extents.
  std::int64_t rows() const { return Rows; }
  std::int64_t columns() const { return Columns; }

  /// The element register \p Reg of thread \p Thread holds.
  /// @pre Thread < threads(), Reg < registers()
  FragmentCoord coord(std::int64_t Thread, std::int64_t Reg) const {
    const std::int64_t Element =
        ThreadElement[static_cast<std::size_t>(Thread)] +
        RegisterElement[static_cast<std::size_t>(Reg)];
    return {Element % Rows, Element / Rows};
  }

  friend bool operator==(const RegisterFragment &,
                         const RegisterFragment &) = default;

private:
  /// An element's index is a thread's part plus a register's part (the
  /// fragment is a layout): row + Rows * column, the contracts' column-major
  /// codomain within one atom.
  std::vector<std::int64_t> ThreadElement, RegisterElement;
  std::int64_t Rows = 0, Columns = 0;
};

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_REGISTERFRAGMENT_H
