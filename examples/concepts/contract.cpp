// Atom and contract: an instruction as a type, and what it demands as data.
// (docs/concepts.md; `tf facts nv.sm90.Wgmma` prints the whole contract)
#include <tf/tf.hpp>

// The atom: WGMMA with N = 256, bf16 operands from shared memory, A K-major.
using Wgmma = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K>;

// Its contract is data the atom names; the plugin checks every use against it.
static_assert(Wgmma::contract.id.view() == "nv.sm90.Wgmma");
// A parameter the contract forbids does not compile (n <= 256):
//   using Bad = tf::nv::sm90::Wgmma<260, tf::bf16, tf::Form::SS, tf::Major::K>;
