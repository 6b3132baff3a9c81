//===- plugin/lower/sm90/Verify.h - The sm90 extension checks -*- C++ -*-===//
//
// The verifier of the sm90 extension's statements (lower/Verify.h runs it
// with the core checks): every barrier's arrival count is what the roles
// arriving on it perform per phase, another role waits on it, and its
// expected transaction bytes are what the TMA copies issued on it move;
// every use of a barrier indexes slot and phase with one clock, which
// counts the persistent tiles and the K iterations it runs in; named
// barriers count whole warps; TMA boxes and WGMMA descriptors fit their
// views and fields.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_SM90_VERIFY_H
#define TF_PLUGIN_LOWER_SM90_VERIFY_H

#include "lower/Verify.h"

#include <memory>

namespace tf::lower::sm90 {

std::unique_ptr<ExtensionVerifier> makeVerifier(const Kernel &K,
                                                VerifyFailure Fail);

} // namespace tf::lower::sm90

#endif // TF_PLUGIN_LOWER_SM90_VERIFY_H
