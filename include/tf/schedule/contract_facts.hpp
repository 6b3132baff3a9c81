//===- tf/schedule/contract_facts.hpp - Cheap questions to a contract ------===//
//
// The header-level checks of tf::schedule read the atom's constexpr Contract
// (include/tf/atoms/**) -- the single source of its facts -- but never run
// the matching engine (contract/match.hpp): a full match takes seconds of
// constant evaluation, and the plugin does it. What they ask is cheap:
//
//   - is a parameter value allowed (ParamDef range, allowed list, and the
//     first case whose conditions hold)?
//   - what is a derived parameter (WGMMA's k for a dtype)?
//   - what are the atom's extents (atom_shape with its symbols resolved)?
//   - which storage and dtype does an operand need under these parameters?
//
// The checks' messages are detail::Message texts (tf/support/message.hpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/contract/contract.hpp"
#include "tf/dtype.hpp"
#include "tf/support/fixed_vector.hpp"
#include "tf/support/message.hpp"
#include "tf/support/name.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tf::detail {

//===- Parameter values of one atom ----------------------------------------===//

/// One parameter of an atom as its C++ type fixes it: n = 256, dtype = bf16.
struct AtomParam {
  Name name{};
  ParamValue value{};
};
using AtomParams = FixedVector<AtomParam, 8>;

/// The value of parameter `name` in `params`, or nullptr.
constexpr const ParamValue *find_value(const AtomParams &params, Name name) {
  for (const AtomParam &p : params)
    if (p.name == name)
      return &p.value;
  return nullptr;
}

/// The definition of parameter `name` in `c`, or nullptr.
constexpr const ParamDef *find_param(const Contract &c, Name name) {
  for (const ParamDef &d : c.params)
    if (d.name == name)
      return &d;
  return nullptr;
}

/// Whether every condition holds under `params` (a parameter without a
/// value fails its condition).
constexpr bool conditions_hold(const Conditions &when, const AtomParams &params) {
  for (const Condition &c : when) {
    const ParamValue *v = find_value(params, c.param);
    if (v == nullptr || !(*v == c.value))
      return false;
  }
  return true;
}

constexpr bool value_in(const ParamValues &allowed, const ParamValue &v) {
  for (const ParamValue &a : allowed)
    if (a == v)
      return true;
  return false;
}

/// Whether `v` satisfies the predicates of `d` under the other parameters:
/// the range, the allowed list, and the first case whose conditions hold.
constexpr bool param_allows(const ParamDef &d, const ParamValue &v,
                            const AtomParams &params) {
  if (d.has_range && v.kind == ParamKind::integer) {
    if (v.integer < d.lo || v.integer > d.hi)
      return false;
    if (d.step > 1 && v.integer % d.step != 0)
      return false;
  }
  if (d.allowed.size() > 0 && !value_in(d.allowed, v))
    return false;
  for (const ParamCase &k : d.cases)
    if (conditions_hold(k.when, params))
      return value_in(k.allowed, v);
  return true;
}

/// Whether parameter `name` of `params` is allowed by `c` (true when the
/// contract has no such parameter or the atom gives no value).
constexpr bool param_ok(const Contract &c, const AtomParams &params, Name name) {
  const ParamDef *d = find_param(c, name);
  const ParamValue *v = find_value(params, name);
  return d == nullptr || v == nullptr || param_allows(*d, *v, params);
}

/// The value of derived parameter `name` (WGMMA's k): the first case whose
/// conditions hold gives it; -1 when none does.
constexpr std::int64_t derived_integer(const Contract &c, const AtomParams &params,
                                       Name name) {
  const ParamDef *d = find_param(c, name);
  if (d == nullptr)
    return -1;
  for (const ParamCase &k : d->cases)
    if (conditions_hold(k.when, params) && k.allowed.size() > 0)
      return k.allowed[0].integer;
  return -1;
}

/// `params` with every derived integer parameter of `c` added.
constexpr AtomParams with_derived(const Contract &c, AtomParams params) {
  for (const ParamDef &d : c.params)
    if (d.derived && d.kind == ParamKind::integer &&
        find_value(params, d.name) == nullptr)
      params.push_back({d.name, ParamValue::of(derived_integer(c, params, d.name))});
  return params;
}

/// Extent `i` (0 = M, 1 = N, 2 = K) of one atom instance: a constant of
/// atom_shape or the parameter it names; -1 if unknown.
constexpr std::int64_t atom_extent(const Contract &c, const AtomParams &params,
                                   int i) {
  if (i >= c.atom_shape.leaf_count())
    return -1;
  const Int leaf = c.atom_shape.leaf_at(i);
  if (leaf.is_constant())
    return leaf.value;
  const ParamValue *v = find_value(params, leaf.symbol);
  return v != nullptr && v->kind == ParamKind::integer ? v->integer : -1;
}

/// The first operand pattern named `name` whose conditions hold, or nullptr.
constexpr const OperandPattern *find_operand(const Contract &c,
                                             const AtomParams &params, Name name) {
  for (const OperandPattern &o : c.operands)
    if (o.name == name && conditions_hold(o.when, params))
      return &o;
  return nullptr;
}

/// Whether some pattern of operand `name` accepts storage `s`.
constexpr bool operand_takes_storage(const Contract &c, const AtomParams &params,
                                     Name name, Storage s) {
  for (const OperandPattern &o : c.operands)
    if (o.name == name && conditions_hold(o.when, params) && o.storage == s)
      return true;
  return false;
}

/// Whether operand `name` accepts dtype `t` (any pattern whose conditions hold).
constexpr bool operand_takes_dtype(const Contract &c, const AtomParams &params,
                                   Name name, DType t) {
  for (const OperandPattern &o : c.operands) {
    if (!(o.name == name) || !conditions_hold(o.when, params))
      continue;
    switch (o.dtype.kind) {
    case DTypeRule::Kind::any: return true;
    case DTypeRule::Kind::fixed:
      if (o.dtype.dtype == t)
        return true;
      break;
    case DTypeRule::Kind::of_param: {
      const ParamValue *v = find_value(params, o.dtype.param);
      if (v == nullptr || v->dtype == t)
        return true;
      break;
    }
    case DTypeRule::Kind::one_of:
      for (DType d : o.dtype.set)
        if (d == t)
          return true;
      break;
    }
  }
  return false;
}

/// The limit of kind `k` on operand `name` that applies under `params`, or -1.
constexpr std::int64_t operand_limit(const Contract &c, const AtomParams &params,
                                     Name name, OperandLimit::Kind k) {
  for (const OperandLimit &l : c.limits)
    if (l.operand == name && l.kind == k && conditions_hold(l.when, params))
      return l.value;
  return -1;
}

} // namespace tf::detail

/// With the tf plugin loaded (`__has_cpp_attribute(tf::mesh)` is 1) the
/// checks that consult a contract are left to it: in [[tf::kernel]]
/// functions it runs the full match and reports each refusal once, at the
/// operand, with fix-its (docs/language/schedule.md lists which checks these
/// are). TF_CONTRACT_CHECK(cond, "literal", message) is such a check: a
/// static_assert without the plugin; with it, a tf::detail::Refusal whose
/// text the plugin reports as an error at the user's tf::schedule call where
/// its own match does not speak (a schedule outside every kernel), so that
/// loading the plugin never makes a build less strict.
#if defined(__has_cpp_attribute)
#if __has_cpp_attribute(tf::mesh)
#define TF_SCHEDULE_CONTRACT_CHECKS 0
#endif
#endif
#ifndef TF_SCHEDULE_CONTRACT_CHECKS
#define TF_SCHEDULE_CONTRACT_CHECKS 1
#endif

#define TF_REFUSAL_NAME_(line) tf_refusal_##line
#define TF_REFUSAL_NAME(line) TF_REFUSAL_NAME_(line)
#if TF_SCHEDULE_CONTRACT_CHECKS
#define TF_CONTRACT_CHECK(cond, literal, message)                              \
  TF_STATIC_CHECK(cond, literal, message)
#else
namespace tf::detail {
/// A header check's verdict kept for the tf plugin: `Text` is empty when the
/// check passed, else the message its static_assert would print. Written as
/// a type so that it is instantiated wherever the check would be, class
/// scope included.
template <Message Text> struct [[clang::annotate("tf.refusal")]] Refusal {};
} // namespace tf::detail
#define TF_CONTRACT_CHECK(cond, literal, message)                              \
  using TF_REFUSAL_NAME(__LINE__) [[maybe_unused]] = ::tf::detail::Refusal<    \
      (cond) ? ::tf::detail::Message() : ::tf::detail::Message(message)>;
#endif
/// TF_CONTRACT_REQUIRE(cond, "literal"): a TF_CONTRACT_CHECK whose message is
/// the literal.
#define TF_CONTRACT_REQUIRE(cond, literal)                                     \
  TF_CONTRACT_CHECK(cond, literal, ::tf::detail::Message(literal))
