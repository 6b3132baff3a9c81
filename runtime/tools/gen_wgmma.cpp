//===- runtime/tools/gen_wgmma.cpp - WGMMA wrappers from the contract -----===//
//
// Writes the runtime's wrappers of
//
//   wgmma.mma_async.sync.aligned.m64nNkK.f32.atype.btype   (A, B in smem)
//
// for every form the WGMMA contract allows: it reads
// tf::atoms::nv::sm90::wgmma (include/tf/atoms/nv/sm90/wgmma.hpp) -- the
// range of n, the dtypes, the derived k, which majors the SS form takes,
// the f32 accumulator -- and wgmma_b_dtypes() for the B types that may go
// with an A type. Nothing about the instruction is listed here but the PTX
// spelling of tf's dtypes.
//
// An accumulator of N/2 floats per thread is N/2 asm operands, and C++
// cannot expand a pack into an asm operand list, so the wrappers are
// generated: one explicit specialisation of detail::Mma<N, A, B> per form,
// in one header per A type, and wgmma_generated.cuh with the facts the
// dispatch (wgmma.cuh) checks. wgmma_accumulator.cuh's accumulator_coord
// (which accumulator element register i of thread t holds) is written from
// the contract's fragment of C and its register numbering.
//
//   gen_wgmma [--check] [--root DIR]
//
// writes into DIR/runtime/include/tf/runtime/sm90 (DIR defaults to the
// source tree it was built from); --check writes nothing and fails when a
// file differs (ctest gpu-wgmma-generated).
//
//===----------------------------------------------------------------------===//
#include "tf/atoms/nv/sm90/wgmma.hpp"
#include "tf/layout/text.hpp"
#include "tf/schedule/contract_facts.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <unistd.h>

#ifndef TF_SOURCE_DIR
#define TF_SOURCE_DIR "."
#endif

namespace {

namespace fs = std::filesystem;
using tf::DType;
using tf::ParamValue;

constexpr std::string_view tool = "runtime/tools/gen_wgmma.cpp";
constexpr std::string_view contract_header =
    "include/tf/atoms/nv/sm90/wgmma.hpp";
constexpr std::string_view out_dir = "runtime/include/tf/runtime/sm90";

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "gen_wgmma: %s\n", what.c_str());
  std::exit(2);
}

/// PTX's name of a WGMMA operand type; also the enumerator of wgmma::Type.
std::string_view ptx_type(DType t) {
  switch (t) {
  case DType::bf16: return "bf16";
  case DType::f16: return "f16";
  case DType::tf32: return "tf32";
  case DType::fp8e4m3: return "e4m3";
  case DType::fp8e5m2: return "e5m2";
  default: break;
  }
  fail("the contract allows dtype " + std::string(tf::name(t)) +
       ", which has no PTX WGMMA type name here; add it to ptx_type()");
}

/// One A type of the SS form, as the contract states it.
struct TypeFacts {
  DType dtype = DType::f32;
  std::int64_t k = 0;
  bool mn_major_a = false; ///< imm-trans-a allowed
  bool mn_major_b = false; ///< imm-trans-b allowed
  std::vector<DType> b_types;
};

/// One wrapper: m64n{n}k{k}.f32.{a}.{b}.
struct Form {
  int n;
  const TypeFacts *a;
  DType b;
};

struct Enumeration {
  std::int64_t n_lo = 0, n_hi = 0, n_step = 0;
  std::vector<TypeFacts> types; // the contract's dtype order
  std::vector<Form> forms;      // by A type, then B type, then n
};

const tf::ParamDef &param(const tf::Contract &c, tf::Name name) {
  const tf::ParamDef *d = tf::detail::find_param(c, name);
  if (d == nullptr)
    fail("contract " + std::string(c.id.view()) + " has no parameter " +
         std::string(name.view()));
  return *d;
}

Enumeration enumerate() {
  const tf::Contract &c = tf::atoms::nv::sm90::wgmma;
  const tf::ParamDef &n = param(c, "n");
  const tf::ParamDef &dtype = param(c, "dtype");
  const tf::ParamDef &form = param(c, "form");
  const tf::ParamDef &a_major = param(c, "a_major");
  const tf::ParamDef &b_major = param(c, "b_major");
  const ParamValue ss = ParamValue::choose("SS");
  const ParamValue mn = ParamValue::choose("MN");
  const ParamValue k_major = ParamValue::choose("K");
  if (!n.has_range)
    fail("parameter n has no range to enumerate");
  if (!tf::detail::param_allows(form, ss, {}))
    fail("the contract has no form SS");

  Enumeration e;
  e.n_lo = n.lo;
  e.n_hi = n.hi;
  e.n_step = n.step;
  e.types.reserve(dtype.allowed.size());
  for (const ParamValue &t : dtype.allowed) {
    tf::detail::AtomParams p{{"dtype", t}, {"form", ss}};
    // Both operands from shared memory, the accumulator f32: the form the
    // wrappers issue.
    if (!tf::detail::operand_takes_storage(c, p, "A", tf::Storage::smem) ||
        !tf::detail::operand_takes_storage(c, p, "B", tf::Storage::smem) ||
        !tf::detail::operand_takes_dtype(c, p, "C", DType::f32))
      continue;
    TypeFacts f;
    f.dtype = t.dtype;
    f.k = tf::detail::derived_integer(c, p, "k");
    if (f.k <= 0)
      fail("no k for dtype " + std::string(tf::name(t.dtype)));
    if (!tf::detail::param_allows(a_major, k_major, p) ||
        !tf::detail::param_allows(b_major, k_major, p))
      fail("dtype " + std::string(tf::name(t.dtype)) +
           " is not K-major in the SS form; the wrappers assume it is");
    f.mn_major_a = tf::detail::param_allows(a_major, mn, p);
    f.mn_major_b = tf::detail::param_allows(b_major, mn, p);
    // PTX has imm-trans-a and imm-trans-b together or neither.
    if (f.mn_major_a != f.mn_major_b)
      fail("dtype " + std::string(tf::name(t.dtype)) +
           " allows MN-major for one operand only; PTX's SS form has both "
           "imm-trans operands or none");
    for (const ParamValue &b : tf::atoms::nv::sm90::wgmma_b_dtypes(t.dtype)) {
      tf::detail::AtomParams pb{{"dtype", b}, {"form", ss}};
      if (tf::detail::derived_integer(c, pb, "k") != f.k)
        fail("A " + std::string(tf::name(t.dtype)) + " and B " +
             std::string(tf::name(b.dtype)) + " have different k");
      f.b_types.push_back(b.dtype);
    }
    e.types.push_back(f);
  }
  for (const TypeFacts &f : e.types)
    for (DType b : f.b_types)
      for (std::int64_t v = n.lo; v <= n.hi; v += n.step) {
        tf::detail::AtomParams p{{"dtype", ParamValue::of(f.dtype)},
                                 {"form", ss}};
        if (tf::detail::param_allows(n, ParamValue::of(v), p))
          e.forms.push_back({static_cast<int>(v), &f, b});
      }
  return e;
}

//===- Text --------------------------------------------------------------===//

std::string rule(std::string_view left) {
  // An LLVM-style first line: `//===- name - what ---...---===//`, 80 wide.
  std::string line = "//===- " + std::string(left) + " ";
  while (line.size() < 80 - 5)
    line += '-';
  return line + "===//\n";
}

constexpr std::string_view end_rule = "//===------------------------------"
                                      "----------------------------------------"
                                      "===//\n";

std::string opcode(const Form &f) {
  std::ostringstream o;
  o << "wgmma.mma_async.sync.aligned.m64n" << f.n << "k" << f.a->k << ".f32."
    << ptx_type(f.a->dtype) << "." << ptx_type(f.b);
  return o.str();
}

std::string enumerator(DType t) { return "Type::" + std::string(ptx_type(t)); }

/// detail::Mma<N, A, B>: the asm of one form. Operands as the hand-written
/// wrappers had them: N/2 "+f" accumulators, the descriptors "l", scale-d
/// "r" (turned into the predicate), then the immediates "n": imm-trans-a,
/// imm-trans-b (16-bit types only), imm-scale-a, imm-scale-b.
std::string wrapper(const Form &f) {
  const int regs = f.n / 2;
  const bool trans = f.a->mn_major_a;
  const int a = regs, b = regs + 1, sd = regs + 2;
  const int ta = regs + 3, tb = regs + 4;
  const int sa = trans ? regs + 5 : regs + 3, sb = sa + 1;
  std::ostringstream o;
  o << "template <> struct Mma<" << f.n << ", " << enumerator(f.a->dtype)
    << ", " << enumerator(f.b) << "> {\n";
  o << "  static constexpr bool has_trans = " << (trans ? "true" : "false")
    << ";\n";
  o << (trans ? "  template <int TransA, int TransB, int ScaleA, int ScaleB>\n"
              : "  template <int ScaleA, int ScaleB>\n");
  o << "  __device__ __forceinline__ static void\n";
  o << "  run(float (&d)[" << regs << "], std::uint64_t a, std::uint64_t b,\n";
  o << "      std::uint32_t scale_d) {\n";
  o << "    asm volatile(\n";
  o << "        \"{\\n\"\n";
  o << "        \".reg .pred p;\\n\"\n";
  o << "        \"setp.ne.b32 p, %" << sd << ", 0;\\n\"\n";
  o << "        \"" << opcode(f) << " \"\n";
  o << "        \"{\"\n";
  for (int s = 0; s < regs; s += 8) {
    o << "        \"";
    for (int i = s; i < std::min(s + 8, regs); ++i)
      o << (i > s ? ", " : "") << "%" << i;
    o << (s + 8 < regs ? "," : "") << "\"\n";
  }
  o << "        \"}, %" << a << ", %" << b << ", p, %" << sa << ", %" << sb;
  if (trans)
    o << ", %" << ta << ", %" << tb;
  o << ";\\n\"\n";
  o << "        \"}\\n\"\n";
  o << "        : ";
  for (int i = 0; i < regs; ++i) {
    if (i > 0)
      o << (i % 4 == 0 ? ",\n          " : ", ");
    o << "\"+f\"(d[" << i << "])";
  }
  o << "\n        : \"l\"(a), \"l\"(b), \"r\"(scale_d), ";
  if (trans)
    o << "\"n\"(TransA), \"n\"(TransB),\n          ";
  o << "\"n\"(ScaleA), \"n\"(ScaleB));\n";
  o << "  }\n";
  o << "};\n";
  return o.str();
}

std::string type_file_name(DType a) {
  return "wgmma_" + std::string(ptx_type(a)) + ".cuh";
}

std::string generated_note() {
  return "// GENERATED by " + std::string(tool) + " from the contract\n"
         "// nv.sm90.Wgmma (" + std::string(contract_header) +
         "); do not edit.\n"
         "// Regenerate: cmake --build build --target gen_wgmma &&\n"
         "// build/bin/gen_wgmma (ctest gpu-wgmma-generated checks it).\n";
}

/// The wrappers whose A has type `t`.
std::string type_file(const Enumeration &e, const TypeFacts &t) {
  std::ostringstream o;
  const std::string name = type_file_name(t.dtype);
  o << rule("tf/runtime/sm90/" + name + " - m64nNk" + std::to_string(t.k) +
            " " + std::string(ptx_type(t.dtype)) + " WGMMA");
  o << "//\n" << generated_note() << "//\n";
  o << "// Included by tf/runtime/sm90/wgmma_generated.cuh; code calls\n"
       "// wgmma::mma<N, A, B, MajorA, MajorB> (tf/runtime/sm90/wgmma.cuh).\n"
       "//\n";
  o << "// D (64 x N, f32, N/2 registers per thread) = A (64 x " << t.k << ", "
    << ptx_type(t.dtype) << ") * B (" << t.k << " x N,\n// ";
  for (std::size_t i = 0; i < t.b_types.size(); ++i)
    o << (i == 0 ? "" : (i + 1 == t.b_types.size() ? " or " : ", "))
      << ptx_type(t.b_types[i]);
  o << ") + (scale_d ? D : 0); A and B are shared-memory descriptors.\n";
  o << "// N = " << e.n_lo << ".." << e.n_hi << " in steps of " << e.n_step
    << ".\n";
  if (t.mn_major_a)
    o << "// TransA/TransB: 0 K-major, 1 M/N-major.";
  else
    o << "// Both operands K-major: PTX has no imm-trans operands for this "
         "type.\n//";
  o << " ScaleA/ScaleB: 1 or -1.\n//\n" << end_rule;
  o << "#pragma once\n\n#include \"tf/runtime/sm90/wgmma_generated.cuh\"\n\n"
       "#include <cstdint>\n\nnamespace tf::sm90::wgmma::detail {\n";
  for (const Form &f : e.forms)
    if (f.a == &t)
      o << "\n" << wrapper(f);
  o << "\n} // namespace tf::sm90::wgmma::detail\n";
  return o.str();
}

template <class Pred>
void switch_on_type(std::ostringstream &o, const Enumeration &e,
                    std::string_view var, Pred value) {
  o << "  switch (" << var << ") {\n";
  for (const TypeFacts &t : e.types)
    o << "  case " << enumerator(t.dtype) << ": return " << value(t) << ";\n";
  o << "  }\n";
}

/// The types, the facts the dispatch checks, the primary template, and the
/// per-type headers.
std::string index_file(const Enumeration &e) {
  std::ostringstream o;
  o << rule("tf/runtime/sm90/wgmma_generated.cuh - WGMMA forms");
  o << "//\n" << generated_note() << "//\n";
  o << "// What the runtime's wrappers of wgmma.mma_async (A and B from "
       "shared\n// memory, f32 accumulator) cover, as the contract states it, "
       "and the\n// wrappers themselves (one header per A type). Code "
       "includes\n"
       "// tf/runtime/sm90/wgmma.cuh and calls wgmma::mma<N, A, B, MajorA, "
       "MajorB>.\n//\n";
  o << end_rule;
  o << "#pragma once\n\n#include <cstdint>\n\nnamespace tf::sm90::wgmma {\n\n";
  o << "/// The element types of A and B (PTX's .atype/.btype).\n";
  o << "enum class Type : int {";
  for (std::size_t i = 0; i < e.types.size(); ++i)
    o << (i ? ", " : " ") << ptx_type(e.types[i].dtype);
  o << " };\n\n";
  o << "/// K of one m64nNkK instruction whose A has type `t`.\n";
  o << "__host__ __device__ constexpr int k_of(Type t) {\n";
  switch_on_type(o, e, "t",
                 [](const TypeFacts &t) { return std::to_string(t.k); });
  o << "  return 0;\n}\n\n";
  o << "/// Whether A and B of type `t` may be MN-major (\"transposed\": M "
       "or N\n/// contiguous; imm-trans-a/b = 1). Otherwise both are K-major "
       "and the\n/// instruction has no imm-trans operands.\n";
  o << "__host__ __device__ constexpr bool mn_major_allowed(Type t) {\n";
  switch_on_type(o, e, "t", [](const TypeFacts &t) {
    return std::string(t.mn_major_a ? "true" : "false");
  });
  o << "  return false;\n}\n\n";
  o << "/// Whether a wrapper of m64n{n}k{k_of(a)}.f32.{a}.{b} exists.\n";
  o << "__host__ __device__ constexpr bool has_wrapper(int n, Type a, "
       "Type b) {\n";
  o << "  if (n < " << e.n_lo << " || n > " << e.n_hi << " || n % " << e.n_step
    << " != 0)\n    return false;\n";
  switch_on_type(o, e, "a", [](const TypeFacts &t) {
    std::string s;
    for (std::size_t i = 0; i < t.b_types.size(); ++i)
      s += (i ? " || b == " : "b == ") + enumerator(t.b_types[i]);
    return s;
  });
  o << "  return false;\n}\n\n";
  // The same facts in words, for the dispatch's static_assert messages
  // (string literals: nvcc has no computed messages).
  o << "/// has_wrapper and mn_major_allowed in words, for messages.\n";
  o << "#define TF_WGMMA_FORMS \\\n  \"N = " << e.n_lo << ".." << e.n_hi
    << " in steps of " << e.n_step << "; A x B: ";
  for (std::size_t i = 0; i < e.types.size(); ++i) {
    const TypeFacts &t = e.types[i];
    o << (i ? ", " : "") << ptx_type(t.dtype) << " x ";
    if (t.b_types.size() == 1) {
      o << ptx_type(t.b_types[0]);
      continue;
    }
    o << "{";
    for (std::size_t j = 0; j < t.b_types.size(); ++j)
      o << (j ? ", " : "") << ptx_type(t.b_types[j]);
    o << "}";
  }
  o << "\"\n";
  o << "#define TF_WGMMA_MN_MAJOR_TYPES \"";
  bool first = true;
  for (const TypeFacts &t : e.types)
    if (t.mn_major_a) {
      o << (first ? "" : ", ") << ptx_type(t.dtype);
      first = false;
    }
  o << "\"\n\n";
  o << "namespace detail {\n\n";
  o << "/// The wrapper of m64n{N}k{k_of(A)}.f32.{A}.{B}: `run<TransA, "
       "TransB,\n/// ScaleA, ScaleB>` where has_trans, else `run<ScaleA, "
       "ScaleB>`. Only the\n/// specialisations below exist (has_wrapper).\n";
  o << "template <int N, Type A, Type B> struct Mma;\n\n";
  o << "} // namespace detail\n\n} // namespace tf::sm90::wgmma\n\n";
  for (const TypeFacts &t : e.types)
    o << "#include \"tf/runtime/sm90/" << type_file_name(t.dtype) << "\"\n";
  return o.str();
}

//===- The accumulator's registers ---------------------------------------===//

/// The contract's register fragment of C (the one shard pattern of the
/// register operand C, with its register numbering) and C's operand.
const tf::LayoutPattern &accumulator_pattern(const tf::OperandPattern *&op) {
  const tf::Contract &c = tf::atoms::nv::sm90::wgmma;
  const tf::LayoutPattern *found = nullptr;
  for (const tf::OperandPattern &o : c.operands)
    if (o.name == "C" && o.storage == tf::Storage::rmem)
      for (const tf::LayoutPattern &l : o.layouts) {
        if (l.kind != tf::LayoutPatternKind::shard || found != nullptr)
          fail("operand C has more than one register fragment, or one that "
               "is not a ShardLayout; accumulator_coord takes one");
        found = &l;
        op = &o;
      }
  if (found == nullptr || found->register_strides.empty())
    fail("operand C has no register fragment with a register numbering");
  return *found;
}

/// The value of an extent, or its symbol.
std::string extent_text(const tf::Int &x) {
  return x.kind == tf::IntKind::constant ? std::to_string(x.value)
                                         : std::string(x.symbol.view());
}

/// `(var / stride % extent)`, leaving out what does not change the value
/// (the modulo of the outermost digit).
std::string digit(std::string_view var, std::int64_t stride,
                  const tf::Int &extent, bool outermost) {
  std::string s(var);
  if (stride != 1)
    s += " / " + std::to_string(stride);
  if (!outermost)
    s += " % " + extent_text(extent);
  return s == var ? s : "(" + s + ")";
}

/// wgmma_accumulator.cuh: accumulator_coord(t, i) written out from the
/// contract's fragment of C (which thread holds an element) and its register
/// numbering (which of the thread's registers): the element's index
/// row + rows * column is a sum of one term per leaf of the fragment.
std::string accumulator_file() {
  const tf::OperandPattern *op = nullptr;
  const tf::LayoutPattern &p = accumulator_pattern(op);
  const tf::ShardLayout &s = p.shard;
  if (op->shape.rank() != 2 || !op->shape.mode(0).is_leaf() ||
      op->shape.mode(0).leaf_at(0).kind != tf::IntKind::constant)
    fail("operand C's shape has no fixed row count");
  const std::int64_t rows = op->shape.mode(0).leaf_at(0).value;
  const tf::IntTuple &mesh_shape = s.mesh.layout.shape;
  const tf::IntTuple &mesh_stride = s.mesh.layout.stride;
  std::int64_t threads = 1;
  for (int k = 0; k < mesh_shape.leaf_count(); ++k) {
    if (mesh_shape.leaf_at(k).kind != tf::IntKind::constant ||
        mesh_stride.leaf_at(k).kind != tf::IntKind::constant)
      fail("the accumulator's mesh has an extent or stride that is not a "
           "number");
    threads *= mesh_shape.leaf_at(k).value;
  }
  const tf::IntTuple &shape = s.layout.shape;
  const tf::IntTuple &stride = s.layout.stride;
  // The local leaf of the largest register stride takes every register
  // above the others: its extent (symbolic: N / 8) needs no modulo.
  std::int64_t top = 0;
  for (std::int64_t r : p.register_strides)
    top = std::max(top, r);
  std::vector<std::string> terms;
  std::string text_shape, text_stride, locals, numbering;
  std::size_t local = 0;
  for (int j = 0; j < shape.leaf_count(); ++j) {
    const tf::Int &extent = shape.leaf_at(j);
    const tf::Int &step = stride.leaf_at(j);
    if (step.kind != tf::IntKind::constant)
      fail("the accumulator's layout has a stride that is not a number");
    const tf::AxisRef &a = s.axes[j];
    if (a.bound() && a.index < 0)
      fail("the accumulator's fragment binds a mesh axis by name; "
           "accumulator_coord reads leaf bindings (@i)");
    std::string term;
    if (a.bound()) {
      const tf::Int &m = mesh_shape.leaf_at(a.index);
      const std::int64_t ms = mesh_stride.leaf_at(a.index).value;
      term = digit("t", ms, m, ms * m.value == threads);
    } else {
      if (local >= p.register_strides.size())
        fail("the register numbering has fewer strides than the fragment "
             "has local leaves");
      const std::int64_t r = p.register_strides[local++];
      if (extent.kind != tf::IntKind::constant && r != top)
        fail("a symbolic local leaf of the accumulator is not its outermost "
             "register leaf");
      term = digit("i", r, extent, r == top);
      locals += (locals.empty() ? "" : ",") + extent_text(extent);
      numbering += (numbering.empty() ? "" : ", ") + std::to_string(r);
    }
    if (step.value != 1)
      term = std::to_string(step.value) + " * " + term;
    terms.push_back(term);
    text_shape += (j ? "," : "") + extent_text(extent) +
                  (a.bound() ? "@" + std::to_string(a.index) : "");
    text_stride += (j ? "," : "") + std::to_string(step.value);
  }
  if (local != p.register_strides.size())
    fail("the register numbering has more strides than the fragment has "
         "local leaves");

  std::ostringstream o;
  o << rule("tf/runtime/sm90/wgmma_accumulator.cuh - WGMMA D registers");
  o << "//\n" << generated_note() << "//\n";
  o << "// Included by tf/runtime/sm90/wgmma.cuh. The contract's accumulator "
       "D\n// (" << p.source.view() << "): the fragment\n// (" << text_shape
    << "):(" << text_stride << ")\n// over the warpgroup's threads "
    << tf::to_string(s.mesh.layout) << " (@k: thread leaf k),\n// "
    << "element index row + " << rows << " * column; PTX numbers its local "
    << "leaves (" << locals << ")\n// as registers with the strides ("
    << numbering << ").\n//\n" << end_rule;
  o << "#pragma once\n\nnamespace tf::sm90::wgmma {\n\n";
  o << "/// Where register `i` of thread `t` (0.." << threads - 1
    << ") of a m64nNkK accumulator\n/// lies in the " << rows
    << " x N tile (every K and input type).\n";
  o << "struct FragmentCoord {\n  int row;\n  int col;\n};\n";
  o << "__host__ __device__ constexpr FragmentCoord accumulator_coord(int t, "
       "int i) {\n";
  std::string line = "  const int element =";
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const std::string piece =
        " " + terms[k] + (k + 1 < terms.size() ? " +" : ";");
    if (line.size() + piece.size() > 80) {
      o << line << "\n";
      line = "     ";
    }
    line += piece;
  }
  o << line << "\n";
  o << "  return {element % " << rows << ", element / " << rows << "};\n}\n\n";
  o << "} // namespace tf::sm90::wgmma\n";
  return o.str();
}

std::string read(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  if (!in)
    return {};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Writes `p` whole or not at all: a temporary of this process's own
/// (two builds may run the generator at once) renamed over it.
void write(const fs::path &p, const std::string &text) {
  const fs::path tmp = p.string() + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    out.close();
    if (!out) {
      fs::remove(tmp);
      fail("cannot write " + tmp.string());
    }
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) {
    fs::remove(tmp);
    fail("cannot rename " + tmp.string() + " to " + p.string() + ": " +
         ec.message());
  }
}

} // namespace

int main(int argc, char **argv) {
  bool check = false;
  fs::path root = TF_SOURCE_DIR;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--check")
      check = true;
    else if (arg == "--root" && i + 1 < argc)
      root = argv[++i];
    else {
      std::fprintf(stderr,
                   "usage: gen_wgmma [--check] [--root DIR]\n"
                   "writes DIR/%s/wgmma_generated.cuh, wgmma_accumulator.cuh "
                   "and wgmma_<type>.cuh from the WGMMA contract; --check "
                   "only compares\n",
                   std::string(out_dir).c_str());
      return 2;
    }
  }
  const Enumeration e = enumerate();
  std::vector<std::pair<std::string, std::string>> files;
  files.emplace_back("wgmma_generated.cuh", index_file(e));
  files.emplace_back("wgmma_accumulator.cuh", accumulator_file());
  for (const TypeFacts &t : e.types)
    files.emplace_back(type_file_name(t.dtype), type_file(e, t));

  const fs::path dir = root / out_dir;
  int stale = 0;
  // A wgmma_*.cuh this program wrote once but writes no more (a type the
  // contract dropped) is removed, or reported under --check.
  std::error_code ec;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool ours = name.starts_with("wgmma_") && name.ends_with(".cuh") &&
                      read(entry.path()).find("// GENERATED by " +
                                              std::string(tool)) !=
                          std::string::npos;
    bool generated = false;
    for (const auto &f : files)
      generated = generated || f.first == name;
    if (!ours || generated)
      continue;
    if (check) {
      std::fprintf(stderr, "%s is no longer generated; run gen_wgmma (%s)\n",
                   entry.path().string().c_str(), std::string(tool).c_str());
      ++stale;
    } else {
      fs::remove(entry.path());
    }
  }
  if (ec)
    fail("cannot list " + dir.string() + ": " + ec.message());
  for (const auto &[name, text] : files) {
    const fs::path p = dir / name;
    if (check) {
      if (read(p) != text) {
        std::fprintf(stderr, "%s is stale; run gen_wgmma (%s)\n",
                     p.string().c_str(), std::string(tool).c_str());
        ++stale;
      }
    } else if (read(p) != text) {
      write(p, text);
    }
  }
  if (check && stale == 0)
    std::printf("%zu WGMMA wrappers in %zu headers are up to date\n",
                e.forms.size(), files.size());
  return stale == 0 ? 0 : 1;
}
