//===- plugin/lower/sm90/Sm90.h - The LIR's Hopper extension ---*- C++ -*-===//
//
// What the LIR says about an sm_90 kernel beyond its core (lower/LIR.h):
// the mbarrier hand-off (init, wait, arrive, arrive.expect_tx), the fences
// and barriers around it, the bulk-copy and WGMMA groups, and the
// encodings of the two sm_90 atom calls -- a TMA box (the bytes it moves,
// the barrier a load completes) and a WGMMA (its shared-memory matrix
// descriptors). The cuda_sm90 backend creates them: its hand-off protocol
// (backend/cuda_sm90/Handoff.cpp) the hand-off statements, its rules the
// atom calls. The printer and the verifier reach it through lower::Extension
// (Sm90.cpp, Verify.cpp here); the CUDA writer
// (backend/cuda_sm90/CudaEmitter.h) and the interpreter (plugin/interp/)
// cast to these classes.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_SM90_SM90_H
#define TF_PLUGIN_LOWER_SM90_SM90_H

#include "lower/LIR.h"

#include <memory>
#include <string>

namespace tf::lower::sm90 {

/// The extension's statement kinds.
enum class Kind : unsigned {
  // The hand-off protocol.
  BarrierInit,      ///< mbarrier.init every object of Bar with Count
  FenceBarrierInit, ///< fence.mbarrier_init, then a CTA barrier
  Wait,             ///< mbarrier.try_wait.parity Bar[Slot], Phase
  ArriveExpectTx,   ///< mbarrier.arrive.expect_tx Bar[Slot], Bytes
  Arrive,           ///< mbarrier.arrive Bar[Slot]
  FenceProxyAsync,  ///< fence.proxy.async.shared::cta
  NamedBarrier,     ///< bar.sync Id, Count
  ClusterBarrier,   ///< barrier.cluster.arrive.release + wait.acquire
  // Groups of asynchronous instructions.
  BulkCommit,   ///< cp.async.bulk.commit_group
  BulkWaitRead, ///< cp.async.bulk.wait_group.read 0
  WgmmaFence,   ///< wgmma.fence
  WgmmaCommit,  ///< wgmma.commit_group
  WgmmaWait,    ///< wgmma.wait_group Count
  // Atom call encodings.
  Tma,   ///< cp.async.bulk.tensor, a box global <-> shared
  Wgmma, ///< wgmma.mma_async with shared-memory descriptors
};

/// The extension object (its name `sm90`, its printer and verifier).
const Extension &extension();

/// The PTX name of \p K (`mbarrier.arrive`); a TMA box's is its load's.
const char *kindName(Kind K);

/// Every statement of the extension.
class Inst : public ExtensionInst {
public:
  explicit Inst(Kind K) : ExtensionInst(sm90::extension(), unsigned(K)) {}
  Kind sm90Kind() const { return static_cast<Kind>(kind()); }
  static bool classof(const ExtensionInst *I) {
    return &I->extension() == &sm90::extension();
  }
};

/// The class of statements of kind \p K (CRTP: \p Derived is it).
template <Kind K, class Derived, class Base = Inst>
class InstOf : public Base {
public:
  InstOf() : Base(K) {}
  static bool classof(const ExtensionInst *I) {
    return Inst::classof(I) && static_cast<const Inst *>(I)->sm90Kind() == K;
  }
  std::unique_ptr<ExtensionInst> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived &>(*this));
  }
};

/// A statement with no operands (fences, commits).
template <Kind K> class Plain final : public InstOf<K, Plain<K>> {};
using FenceBarrierInit = Plain<Kind::FenceBarrierInit>;
using FenceProxyAsync = Plain<Kind::FenceProxyAsync>;
using BulkCommit = Plain<Kind::BulkCommit>;
using BulkWaitRead = Plain<Kind::BulkWaitRead>;
using WgmmaFence = Plain<Kind::WgmmaFence>;
using WgmmaCommit = Plain<Kind::WgmmaCommit>;
/// Every thread of every CTA of the cluster meets: after set-up (no CTA
/// multicasts into a peer's ring or arrives on its barriers before the peer
/// initialised them) and at the end (no CTA exits while a peer may still
/// write into its shared memory).
using ClusterBarrier = Plain<Kind::ClusterBarrier>;

/// mbarrier.init of every object of Bar with Count arrivals.
class BarrierInit final : public InstOf<Kind::BarrierInit, BarrierInit> {
public:
  BarrierId Bar = None;
  std::int64_t Count = 0;
};

/// A use of one mbarrier object: array Bar, object Slot, with the clock of
/// the guarded ring or buffer (Verify.cpp compares every use's).
class BarrierUse : public Inst {
public:
  using Inst::Inst;
  BarrierId Bar = None;
  ExprId Slot = None, Clock = None;
  /// Threads that perform it (the arrivals it contributes).
  std::int64_t Threads = 0;
  /// The one thread of the role that performs it (-1: all of them).
  std::int64_t Elected = -1;
  static bool classof(const ExtensionInst *I) {
    if (!Inst::classof(I))
      return false;
    const Kind K = static_cast<const Inst *>(I)->sm90Kind();
    return K == Kind::Wait || K == Kind::Arrive || K == Kind::ArriveExpectTx;
  }
};

/// Waits for the phase of Bar[Slot] with parity Phase.
class Wait final : public InstOf<Kind::Wait, Wait, BarrierUse> {
public:
  ExprId Phase = None;
  /// The producer's wait on an empty barrier, whose Phase is the clock's
  /// ^ 1 so that its first pass over fresh barriers does not block.
  bool ProducerParity = false;
};

/// An arrival on Bar[Slot] of this CTA, by Threads threads (or thread
/// Elected). Cluster: the release of a slot that multicast loads fill,
/// free only when the readers of every CTA it is delivered to released it
/// -- thread r of each warpgroup of the role (whose WGMMA reads completed
/// per warpgroup) arrives on Bar[Slot] of the CTA of cluster rank r;
/// Threads is the role's warpgroups, the arrivals each CTA's object
/// receives from one CTA.
class Arrive final : public InstOf<Kind::Arrive, Arrive, BarrierUse> {
public:
  bool Cluster = false;
};

/// Arrives and expects Bytes of asynchronous transactions.
class ArriveExpectTx final
    : public InstOf<Kind::ArriveExpectTx, ArriveExpectTx, BarrierUse> {
public:
  std::int64_t Bytes = 0;
};

/// bar.sync Id, Count.
class NamedBarrier final : public InstOf<Kind::NamedBarrier, NamedBarrier> {
public:
  std::int64_t Id = 0;
  std::int64_t Count = 0;
};

/// wgmma.wait_group Count: at most Count groups stay pending.
class WgmmaWait final : public InstOf<Kind::WgmmaWait, WgmmaWait> {
public:
  std::int64_t Count = 0;
};

/// The encoding of a CopyAsyncTensor atom call (operands `src` and `dst`,
/// one global box and one shared view): its direction, the box's bytes and,
/// for a load, the barrier object Bar[Slot] its transactions complete.
/// A multicast load (Multicast > 1) is issued by the CTA of cluster rank
/// Issuer only and lands, with its completion, at the same shared-memory
/// offsets in each of the Multicast CTAs of the cluster (ctaMask
/// 2^Multicast - 1).
class Tma final : public InstOf<Kind::Tma, Tma> {
public:
  bool Store = false;
  std::int64_t Bytes = 0;
  BarrierId Bar = None;
  ExprId Slot = None, Clock = None;
  std::int64_t Multicast = 1;
  std::int64_t Issuer = 0;
};

/// A shared-memory matrix descriptor of WGMMA (PTX ISA, "Matrix Descriptor
/// Format"): byte values; the backend encodes each >> 4 (start address in
/// bits [0,14), LBO in [16,30), SBO in [32,46)), the base offset in
/// [49,52) and the mode in [62,64).
struct SmemDescriptor {
  /// The start's byte offset from the operand view's first byte.
  std::int64_t Start = 0;
  std::int64_t LeadingBytes = 0, StrideBytes = 0;
  /// Whether the layout fixes LBO (a swizzled K-major operand does not: the
  /// field is unused and encoded as 1, as CUTLASS does).
  bool LeadingUsed = true;
  int BaseOffset = 0;
  SwizzleMode Swizzle = SwizzleMode::none;

  /// The mode's encoding in bits [62,64): 0 none, 1 128B, 2 64B, 3 32B.
  int swizzleField() const;
  friend bool operator==(const SmemDescriptor &,
                         const SmemDescriptor &) = default;
};

/// The encoding of a WGMMA atom call (operands `A` and `B` in ring slots,
/// `C` the accumulator's block): the atom; the issuing warpgroup
/// (AxisValue of the compute mesh's spatial M axis Axis); the k-step; the
/// operands' descriptors (relative to the slot); imm-trans-a / imm-trans-b
/// (the operand is MN-major).
class Wgmma final : public InstOf<Kind::Wgmma, Wgmma> {
public:
  MmaAtom Atom;
  std::string Axis;
  std::int64_t AxisValue = 0;
  std::int64_t KStep = 0;
  SmemDescriptor A, B;
  bool TransA = false, TransB = false;
};

/// The PTX opcode of WGMMA atom \p A:
/// `wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16`.
std::string wgmmaOpcode(const MmaAtom &A);

} // namespace tf::lower::sm90

#endif // TF_PLUGIN_LOWER_SM90_SM90_H
