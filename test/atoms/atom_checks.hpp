//===- test/atoms/atom_checks.hpp - Helpers for the atom contract tests ---===//
//
// A reference reading of the OperandLimit kinds on concrete layouts, so each
// limit of each contract gets a passing and a failing case while the
// matching engine (contract/match.hpp) is checked by its own tests; and
// lookups of a contract's items by name.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/contract/contract.hpp"
#include "tf/layout/mesh_match.hpp"

#include <cstdint>
#include <string_view>

namespace tf::test {

/// A concrete operand for a limit: its layout, element type and the byte
/// address of its first element.
struct Operand {
  Layout layout{};
  DType dtype = DType::u8;
  std::int64_t base = 0;
};

/// Whether `l` holds for `op`, reading the kinds as contract.hpp defines them.
inline bool limit_holds(const OperandLimit &l, const Operand &op) {
  using K = OperandLimit::Kind;
  const Layout &x = op.layout;
  const std::int64_t b = bytes(op.dtype);
  std::int64_t inner = *size(x.mode(x.rank() - 1)) * b;
  switch (l.kind) {
  case K::mode_extent_max:
    return l.mode >= x.rank() || *size(x.mode(l.mode)) <= l.value;
  case K::every_mode_extent_max:
    for (int i = 0; i < x.rank(); ++i)
      if (*size(x.mode(i)) > l.value)
        return false;
    return true;
  case K::inner_bytes_min: return inner >= l.value;
  case K::inner_bytes_mult: return inner % l.value == 0;
  case K::inner_bytes_max: return inner <= l.value;
  case K::rank_max: return x.rank() <= l.value;
  case K::base_align_bytes: return op.base % l.value == 0;
  case K::outer_stride_bytes_mult: {
    FlatLeaves f = *flat_leaves(x);
    for (int j = 0; j + 1 < f.count; ++j)
      if (f.extent[j] > 1 && (f.stride[j] * b) % l.value != 0)
        return false;
    return true;
  }
  }
  return false;
}

/// Whether every condition of `when` holds for the integer/choice `params`.
inline bool conditions_hold(const Conditions &when,
                            std::initializer_list<Condition> params) {
  for (const Condition &c : when) {
    bool found = false;
    for (const Condition &p : params)
      if (p.param == c.param.view())
        found = p.value == c.value;
    if (!found)
      return false;
  }
  return true;
}

/// A passing and a failing operand for limit `l` (u8 elements, so bytes and
/// elements agree), built from the kind alone.
struct LimitCases {
  Operand pass{};
  Operand fail{};
};

inline Layout row(std::int64_t n) { return make_layout(IntTuple{n}); }

inline LimitCases limit_cases(const OperandLimit &l) {
  using K = OperandLimit::Kind;
  LimitCases c;
  auto modes = [](int rank, int at, std::int64_t extent) {
    IntTuple s;
    for (int i = 0; i < rank; ++i)
      s.push_back(IntTuple(i == at ? extent : 1));
    return make_layout(s);
  };
  switch (l.kind) {
  case K::mode_extent_max:
    c.pass.layout = modes(l.mode + 1, l.mode, l.value);
    c.fail.layout = modes(l.mode + 1, l.mode, l.value + 1);
    break;
  case K::every_mode_extent_max:
    c.pass.layout = modes(2, 0, l.value);
    c.fail.layout = modes(2, 0, l.value + 1);
    break;
  case K::inner_bytes_min:
    c.pass.layout = row(l.value);
    c.fail.layout = row(l.value - 1);
    break;
  case K::inner_bytes_mult:
    c.pass.layout = row(l.value);
    c.fail.layout = row(l.value + 1);
    break;
  case K::inner_bytes_max:
    c.pass.layout = row(l.value);
    c.fail.layout = row(l.value + 1);
    break;
  case K::rank_max:
    c.pass.layout = modes(static_cast<int>(l.value), 0, 2);
    c.fail.layout = modes(static_cast<int>(l.value) + 1, 0, 2);
    break;
  case K::base_align_bytes:
    c.pass.layout = c.fail.layout = row(1);
    c.pass.base = 3 * l.value;
    c.fail.base = 3 * l.value + l.value / 2;
    break;
  case K::outer_stride_bytes_mult:
    c.pass.layout = Layout{IntTuple{2, 4}, IntTuple{l.value, 1}};
    c.fail.layout = Layout{IntTuple{2, 4}, IntTuple{l.value + 1, 1}};
    break;
  }
  return c;
}

/// The parameter named `name` of `c`, or nullptr.
inline const ParamDef *find_param(const Contract &c, std::string_view name) {
  for (const ParamDef &p : c.params)
    if (p.name == name)
      return &p;
  return nullptr;
}

/// The first operand pattern named `name` whose `when` holds for `params`.
inline const OperandPattern *
find_operand(const Contract &c, std::string_view name,
             std::initializer_list<Condition> params = {}) {
  for (const OperandPattern &o : c.operands)
    if (o.name == name && conditions_hold(o.when, params))
      return &o;
  return nullptr;
}

/// The first layout pattern of `o` whose `when` holds for `params`.
inline const LayoutPattern *
find_layout(const OperandPattern &o,
            std::initializer_list<Condition> params = {}) {
  for (const LayoutPattern &p : o.layouts)
    if (conditions_hold(p.when, params))
      return &p;
  return nullptr;
}

/// Bindings from (name, value) pairs.
inline Bindings bind(std::initializer_list<Binding> values) {
  Bindings b;
  for (const Binding &v : values)
    b.values.push_back(v);
  return b;
}

/// `l` with its symbols replaced by `b`.
inline Layout instantiate(const Layout &l, const Bindings &b) {
  return Layout{*substitute(l.shape, b), *substitute(l.stride, b)};
}

} // namespace tf::test
