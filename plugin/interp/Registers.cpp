//===- plugin/interp/Registers.cpp - Register programs --------------------===//
//
// The register statements of the LIR (lower/LIR.h, "Register programs"),
// each performed by every thread of the walker on its own registers: a
// load reads each register's element of the global tile (0 outside the
// tensor), math computes in f32 and rounds to the tile's type, a
// reduction folds each thread's registers in order and then exchanges
// partials between the lanes of a warp, one butterfly round per mask, as
// shfl.bfly does (across warps, one lane per group writes the partials
// into shared memory and every thread folds those of its element's warps;
// a partial read before the role's threads met after its write, or
// overwritten before they met after its read, is a race and an error),
// and a store writes the registers inside the tensor. A
// load's or store's vector claim -- its runs are consecutive elements of
// the tensor's last dimension -- is checked, and reading a register no
// statement wrote reads NaN.
//
//===----------------------------------------------------------------------===//
#include "interp/Run.h"

#include "tf/ops/activation_math.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace tf::interp::impl {

namespace {

/// \p V rounded to \p T as a register of that type holds it.
float roundTo(DType T, float V) {
  std::uint8_t Bytes[4];
  storeFromFloat(Bytes, T, V);
  return loadAsFloat(Bytes, T);
}

} // namespace

std::vector<float> &Run::tileRegisters(Walker &W, unsigned Tile) {
  std::vector<float> &Regs = cta(W).TileRegs[Tile];
  if (Regs.empty())
    Regs.assign(static_cast<std::size_t>(K.BlockThreads * K.Tiles[Tile].Registers),
                std::numeric_limits<float>::quiet_NaN());
  return Regs;
}

std::int64_t Run::tileCoord(const Walker &W, unsigned Tile, std::size_t D,
                            std::int64_t Thread, std::int64_t Reg) const {
  const lower::RegisterTile &T = K.Tiles[Tile];
  const std::int64_t Local = Thread - W.Role->Begin;
  std::int64_t C = T.RegisterCoord[D][static_cast<std::size_t>(Reg)];
  for (const lower::ThreadTerm &X : T.ThreadCoord[D])
    C += Local / X.Divisor % X.Extent * X.Scale;
  return C;
}

llvm::Expected<const TensorArg *>
Run::tensorArgument(llvm::StringRef Name) const {
  for (std::size_t P = 0; P < K.Parameters.size(); ++P)
    if (K.Parameters[P].Name == Name &&
        K.Parameters[P].What == lower::Parameter::Kind::Tensor)
      return &Args[P];
  return fail("reads '" + Name + "', which is no tensor parameter");
}

llvm::Expected<float> Run::scalarValue(const Walker &W,
                                       const lower::ScalarExpr &E) {
  using Kind = lower::ScalarExpr::Kind;
  switch (E.What) {
  case Kind::Constant:
    return static_cast<float>(E.Value);
  case Kind::Parameter:
    for (std::size_t P = 0; P < K.Parameters.size(); ++P)
      if (K.Parameters[P].Name == E.Parameter &&
          K.Parameters[P].What == lower::Parameter::Kind::Float)
        return static_cast<float>(Args[P].Float);
    return fail("reads '" + E.Parameter + "', which is no float parameter");
  case Kind::Index: {
    llvm::Expected<std::int64_t> V = eval(W, E.Index);
    if (!V)
      return V.takeError();
    return static_cast<float>(*V);
  }
  default:
    break;
  }
  std::vector<float> A;
  for (const lower::ScalarExpr &X : E.Args) {
    llvm::Expected<float> V = scalarValue(W, X);
    if (!V)
      return V.takeError();
    A.push_back(*V);
  }
  switch (E.What) {
  case Kind::Neg: return -A[0];
  case Kind::Add: return A[0] + A[1];
  case Kind::Sub: return A[0] - A[1];
  case Kind::Mul: return A[0] * A[1];
  case Kind::Div: return A[0] / A[1];
  default: return fail("a scalar of an unknown kind");
  }
}

llvm::Error Run::forEachGlobalElement(
    Walker &W, unsigned Tile, const lower::EpilogueLoad &G,
    std::int64_t Vector,
    llvm::function_ref<void(std::size_t Register, const TensorArg &,
                            llvm::ArrayRef<std::int64_t> Coord, bool Inside)>
        Visit) {
  llvm::Expected<const TensorArg *> Found = tensorArgument(G.Tensor);
  if (!Found)
    return Found.takeError();
  const TensorArg *Arg = *Found;
  llvm::SmallVector<std::int64_t, 4> Origin;
  for (lower::ExprId E : G.Origin) {
    llvm::Expected<std::int64_t> V = eval(W, E);
    if (!V)
      return V.takeError();
    Origin.push_back(*V);
  }
  const lower::RegisterTile &T = K.Tiles[Tile];
  for (std::int64_t Thread = W.Begin; Thread < W.End; ++Thread)
    for (std::int64_t R = 0; R < T.Registers; ++R) {
      llvm::SmallVector<std::int64_t, 4> Coord;
      bool Inside = true;
      for (std::size_t D = 0; D < Origin.size(); ++D) {
        const std::int64_t C = Origin[D] + tileCoord(W, Tile, G.Dims[D], Thread, R);
        Inside = Inside && C >= 0 && C < Arg->Extents[D];
        Coord.push_back(C);
      }
      // A vector's later registers: the next elements of the last
      // dimension.
      if (R % Vector != 0 && !Origin.empty()) {
        const int Last = G.Dims.back();
        if (tileCoord(W, Tile, Last, Thread, R) !=
            tileCoord(W, Tile, Last, Thread, R - 1) + 1)
          return fail("moves a vector of " + llvm::Twine(Vector) +
                      " registers that are not consecutive elements");
      }
      Visit(static_cast<std::size_t>(Thread * T.Registers + R), *Arg, Coord,
            Inside);
    }
  return llvm::Error::success();
}

llvm::Error Run::registerLoad(Walker &W, const lower::RegisterLoadStmt &I) {
  std::vector<float> &Regs = tileRegisters(W, I.Dst);
  return forEachGlobalElement(
      W, I.Dst, I.Src, I.Vector,
      [&](std::size_t Reg, const TensorArg &A,
          llvm::ArrayRef<std::int64_t> Coord, bool Inside) {
        Regs[Reg] = Inside ? loadAsFloat(A.at(Coord), I.Src.Element) : 0.0f;
      });
}

llvm::Error Run::registerStore(Walker &W, const lower::RegisterStoreStmt &I) {
  const std::vector<float> &Regs = tileRegisters(W, I.Src);
  return forEachGlobalElement(
      W, I.Src, I.Dst, I.Vector,
      [&](std::size_t Reg, const TensorArg &A,
          llvm::ArrayRef<std::int64_t> Coord, bool Inside) {
        if (Inside)
          storeFromFloat(A.at(Coord), I.Dst.Element, Regs[Reg]);
      });
}

llvm::Error Run::registerMath(Walker &W, const lower::RegisterMathStmt &I) {
  using Op = lower::RegisterOp;
  const lower::RegisterTile &T = K.Tiles[I.Dst];
  // Operands first: a result may overwrite one of them (`s = add(s, x)`).
  struct Operand {
    const lower::RegisterOperand *O = nullptr;
    std::vector<float> Regs;
    float Scalar = 0;
    const TensorArg *Arg = nullptr;
    llvm::SmallVector<std::int64_t, 4> Origin;
  };
  std::vector<Operand> Ops;
  for (const lower::RegisterOperand &O : I.Operands) {
    Operand X;
    X.O = &O;
    switch (O.What) {
    case lower::RegisterOperand::Kind::Tile:
      X.Regs = tileRegisters(W, O.Tile);
      break;
    case lower::RegisterOperand::Kind::Scalar: {
      llvm::Expected<float> V = scalarValue(W, O.Scalar);
      if (!V)
        return V.takeError();
      X.Scalar = *V;
      break;
    }
    case lower::RegisterOperand::Kind::InBounds: {
      llvm::Expected<const TensorArg *> Arg = tensorArgument(O.Bounds.Tensor);
      if (!Arg)
        return Arg.takeError();
      X.Arg = *Arg;
      for (lower::ExprId E : O.Bounds.Origin) {
        llvm::Expected<std::int64_t> V = eval(W, E);
        if (!V)
          return V.takeError();
        X.Origin.push_back(*V);
      }
      break;
    }
    }
    Ops.push_back(std::move(X));
  }
  std::vector<float> &Out = tileRegisters(W, I.Dst);
  for (std::int64_t Thread = W.Begin; Thread < W.End; ++Thread)
    for (std::int64_t R = 0; R < T.Registers; ++R) {
      std::vector<float> A;
      for (const Operand &X : Ops)
        switch (X.O->What) {
        case lower::RegisterOperand::Kind::Tile: {
          const std::int64_t Q =
              X.O->Map.empty() ? R : X.O->Map[static_cast<std::size_t>(R)];
          A.push_back(X.Regs[static_cast<std::size_t>(
              Thread * K.Tiles[X.O->Tile].Registers + Q)]);
          break;
        }
        case lower::RegisterOperand::Kind::Scalar:
          A.push_back(X.Scalar);
          break;
        case lower::RegisterOperand::Kind::InBounds: {
          bool Inside = true;
          for (std::size_t D = 0; D < X.Origin.size(); ++D) {
            const std::int64_t C =
                X.Origin[D] + tileCoord(W, I.Dst, X.O->Bounds.Dims[D], Thread, R);
            Inside = Inside && C >= 0 && C < X.Arg->Extents[D];
          }
          A.push_back(Inside ? 1.0f : 0.0f);
          break;
        }
        }
      float V = 0;
      switch (I.Op) {
      case Op::Cast: V = A[0]; break;
      case Op::Add: V = A[0] + A[1]; break;
      case Op::Sub: V = A[0] - A[1]; break;
      case Op::Mul: V = A[0] * A[1]; break;
      case Op::Div: V = A[0] / A[1]; break;
      case Op::Max: V = std::max(A[0], A[1]); break;
      case Op::Min: V = std::min(A[0], A[1]); break;
      case Op::Neg: V = -A[0]; break;
      case Op::Exp: V = std::exp(A[0]); break;
      case Op::Exp2: V = std::exp2(A[0]); break;
      case Op::Rsqrt: V = 1 / std::sqrt(A[0]); break;
      case Op::Relu: V = A[0] > 0.0f ? A[0] : 0.0f; break;
      case Op::GeluTanh: V = activation::gelu_tanh(A[0]); break;
      case Op::GeluErf: V = activation::gelu_erf(A[0]); break;
      case Op::Silu: V = activation::silu(A[0]); break;
      case Op::Select: V = A[0] != 0.0f ? A[1] : A[2]; break;
      }
      Out[static_cast<std::size_t>(Thread * T.Registers + R)] = roundTo(I.To, V);
    }
  return llvm::Error::success();
}

llvm::Error Run::registerReduce(Walker &W, const lower::RegisterReduceStmt &I) {
  const bool Sum = I.Op == lower::RegisterOp::Add;
  auto Fold = [&](float A, float B) { return Sum ? A + B : std::max(A, B); };
  const lower::RegisterTile &Src = K.Tiles[I.Src], &Dst = K.Tiles[I.Dst];
  const std::vector<float> In = tileRegisters(W, I.Src);
  std::vector<float> &Out = tileRegisters(W, I.Dst);
  const float Identity = Sum ? 0.0f : -std::numeric_limits<float>::infinity();
  for (std::int64_t Thread = W.Begin; Thread < W.End; ++Thread) {
    for (std::int64_t J = 0; J < Dst.Registers; ++J)
      Out[static_cast<std::size_t>(Thread * Dst.Registers + J)] = Identity;
    for (std::int64_t R = 0; R < Src.Registers; ++R) {
      float &To = Out[static_cast<std::size_t>(
          Thread * Dst.Registers + I.Into[static_cast<std::size_t>(R)])];
      To = Fold(To, In[static_cast<std::size_t>(Thread * Src.Registers + R)]);
    }
  }
  // Butterfly rounds: every lane reads its partner's value of the round
  // before, in the whole warp at once (shfl.sync).
  for (std::int64_t Mask : I.LaneMasks) {
    if (W.Begin % 32 != 0 || W.threads() % 32 != 0)
      return fail("exchanges between lanes in a role of partial warps");
    const std::vector<float> Before = Out;
    for (std::int64_t Thread = W.Begin; Thread < W.End; ++Thread) {
      const std::int64_t Partner = Thread ^ Mask;
      for (std::int64_t J = 0; J < Dst.Registers; ++J)
        Out[static_cast<std::size_t>(Thread * Dst.Registers + J)] = Fold(
            Before[static_cast<std::size_t>(Thread * Dst.Registers + J)],
            Before[static_cast<std::size_t>(Partner * Dst.Registers + J)]);
    }
  }
  for (std::int64_t Thread = W.Begin; Thread < W.End; ++Thread)
    for (std::int64_t J = 0; J < Dst.Registers; ++J) {
      float &V = Out[static_cast<std::size_t>(Thread * Dst.Registers + J)];
      V = roundTo(Dst.Element, V);
    }
  return llvm::Error::success();
}

llvm::Expected<std::int64_t>
Run::partialAddress(const Walker &W, lower::RegionId Scratch,
                    std::int64_t Slots, llvm::ArrayRef<lower::ThreadTerm> Slot,
                    std::int64_t Thread, std::int64_t Offset,
                    std::int64_t Reg) const {
  std::int64_t At = Offset;
  for (const lower::ThreadTerm &X : Slot)
    At += (Thread - W.Role->Begin) / X.Divisor % X.Extent * X.Scale;
  const lower::Region &R = K.Regions[Scratch];
  const std::int64_t Byte =
      (Reg * Slots + At) * static_cast<std::int64_t>(sizeof(float));
  if (At < 0 || At >= Slots || Byte + 4 > R.Bytes)
    return fail("thread " + llvm::Twine(Thread) + "'s partial " +
                llvm::Twine(Reg) + " of slot " + llvm::Twine(At) +
                " lies outside " + R.Name + " (" + llvm::Twine(Slots) +
                " slots, " + llvm::Twine(R.Bytes) + " bytes)");
  return R.Offset + Byte;
}

llvm::Error Run::registerShare(Walker &W, const lower::RegisterShareStmt &I) {
  const std::vector<float> &In = tileRegisters(W, I.Src);
  const std::int64_t Registers = K.Tiles[I.Src].Registers;
  CtaState &C = cta(W);
  for (std::int64_t Thread = W.Begin; Thread < W.End; ++Thread) {
    if ((Thread - W.Role->Begin) & I.Writers)
      continue;
    for (std::int64_t R = 0; R < Registers; ++R) {
      llvm::Expected<std::int64_t> At =
          partialAddress(W, I.Scratch, I.Slots, I.Slot, Thread, 0, R);
      if (!At)
        return At.takeError();
      PartialUse &Use = C.Partials[*At];
      // A thread may still read what this overwrites unless the role met
      // since it read it.
      if (Use.ReadAt >= W.Meets)
        return fail("thread " + llvm::Twine(Thread) + " overwrites a partial "
                    "at shared byte " + llvm::Twine(*At) +
                    " that the role read since its threads last met");
      Use.WrittenAt = W.Meets;
      const float V = In[static_cast<std::size_t>(Thread * Registers + R)];
      std::memcpy(&C.Smem[static_cast<std::size_t>(*At)], &V, sizeof V);
    }
  }
  return llvm::Error::success();
}

llvm::Error Run::registerGather(Walker &W, const lower::RegisterGatherStmt &I) {
  const bool Sum = I.Op == lower::RegisterOp::Add;
  const lower::RegisterTile &Dst = K.Tiles[I.Dst];
  std::vector<float> &Out = tileRegisters(W, I.Dst);
  CtaState &C = cta(W);
  for (std::int64_t Thread = W.Begin; Thread < W.End; ++Thread)
    for (std::int64_t R = 0; R < Dst.Registers; ++R) {
      float V = 0;
      for (std::size_t J = 0; J < I.Offsets.size(); ++J) {
        llvm::Expected<std::int64_t> At = partialAddress(
            W, I.Scratch, I.Slots, I.Slot, Thread, I.Offsets[J], R);
        if (!At)
          return At.takeError();
        PartialUse &Use = C.Partials[*At];
        if (Use.WrittenAt < 0)
          return fail("thread " + llvm::Twine(Thread) + " reads a partial at "
                      "shared byte " + llvm::Twine(*At) +
                      " that no thread wrote");
        if (Use.WrittenAt >= W.Meets)
          return fail("thread " + llvm::Twine(Thread) + " reads a partial at "
                      "shared byte " + llvm::Twine(*At) +
                      " before the role's threads met after writing it");
        Use.ReadAt = std::max(Use.ReadAt, W.Meets);
        float P;
        std::memcpy(&P, &C.Smem[static_cast<std::size_t>(*At)], sizeof P);
        V = J == 0 ? P : Sum ? V + P : std::max(V, P);
      }
      Out[static_cast<std::size_t>(Thread * Dst.Registers + R)] =
          roundTo(Dst.Element, V);
    }
  return llvm::Error::success();
}

} // namespace tf::interp::impl
