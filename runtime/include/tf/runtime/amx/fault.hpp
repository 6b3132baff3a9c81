//===- tf/runtime/amx/fault.hpp - AMX faults and fatal runtime errors -----===//
//
// The exceptions the AMX instructions raise (Intel SDM Vol. 2, the
// instructions' "Exceptions" sections: #UD for an instruction the tile
// state cannot execute, #GP for a configuration LDTILECFG refuses) as values
// the emulation checks return, and the one way the runtime stops a program:
//
//   tf: error: emulated AMX: #UD in TDPBF16PS: tmm0 has 16 rows but tmm1 has 8
//
// A fault aborts rather than throws, as the CPU's own #UD/#GP would kill the
// process, and because generated code may be built with -fno-exceptions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace tf::runtime::amx {

/// The x86 exception an instruction raises.
enum class Exception {
  ud, ///< #UD, invalid opcode: the tile state does not allow the instruction
  gp, ///< #GP, general protection: LDTILECFG's operand is invalid
};

constexpr const char *exception_name(Exception e) {
  switch (e) {
  case Exception::ud:
    return "#UD";
  case Exception::gp:
    return "#GP";
  }
  return "?";
}

/// An exception raised by one instruction, and why.
struct Fault {
  Exception exception;
  const char *instruction;
  std::string why;
};

/// Stops the program with `what` after "tf: error: ".
[[noreturn]] inline void fatal(const std::string &what) {
  std::fprintf(stderr, "tf: error: %s\n", what.c_str());
  std::abort();
}

/// Stops the program as the CPU would on `fault`.
[[noreturn]] inline void raise(const Fault &fault) {
  fatal(std::string("emulated AMX: ") + exception_name(fault.exception) +
        " in " + fault.instruction + ": " + fault.why);
}

} // namespace tf::runtime::amx
