// Native AMX against its emulation, bit for bit (docs/amx.md).
//
// One source, two builds: with -mamx-tile -mamx-bf16 -mamx-int8 it runs the
// instructions (tf/runtime/amx/native.hpp), without them the emulation
// (emulated.hpp). Each build runs the same deterministic cases and writes
// every result byte to the file named by argv[1]; the two files must be
// identical (test/device/amx_exact.sh builds, runs and compares them).
//
// Cases (a fixed xorshift generator, so both builds see the same inputs):
//   - single TDPBF16PS on random tile shapes, memory strides wider than a
//     row, five input families: moderate normal numbers, arbitrary bit
//     patterns (NaN, Inf, denormals), magnitudes near fp32's underflow
//     (products below FLT_MIN, denormal accumulators), short mantissas over
//     wide exponent ranges (rounding ties), and normals mixed with special
//     values;
//   - single TDPBSSD/TDPBSUD/TDPBUSD/TDPBUUD on random and extreme bytes
//     with accumulators near INT32_MIN/MAX (wrap-around);
//   - tiled bf16 and int8 GEMMs (tiled_gemm.hpp) at shapes that are not
//     multiples of 16 or 32, M = 1 among them.
#include "tiled_gemm.hpp"
#include "tf/runtime/amx/cpu.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

namespace amx = tf::runtime::amx;

struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
  int below(int n) { return static_cast<int>(next() % unsigned(n)); }
};

/// A bf16 from sign, exponent field and the top `mantissa_bits` of 7.
std::uint16_t bf16(Random &r, int exponent, int mantissa_bits) {
  const unsigned fraction = mantissa_bits == 0
                                ? 0
                                : (r.next() & ((1u << mantissa_bits) - 1))
                                      << (7 - mantissa_bits);
  return static_cast<std::uint16_t>((r.below(2) << 15) | (exponent << 7) |
                                    fraction);
}

std::uint16_t special_bf16(Random &r) {
  static constexpr std::uint16_t values[] = {
      0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x7f81, 0x7fa5,
      0x0001, 0x807f, 0x0040, 0x7f7f, 0xff7f, 0x0080, 0x3f80, 0xbf80};
  return values[r.below(16)];
}

std::uint16_t input_bf16(Random &r, int family) {
  switch (family) {
  case 0:
    return bf16(r, 119 + r.below(17), 7);
  case 1:
    return static_cast<std::uint16_t>(r.next());
  case 2:
    return bf16(r, r.below(70), 7);
  case 3:
    return bf16(r, 100 + r.below(60), r.below(3));
  default:
    return r.below(10) == 0 ? special_bf16(r) : bf16(r, 119 + r.below(17), 7);
  }
}

std::uint32_t accumulator_f32(Random &r, int family) {
  const std::uint32_t sign = std::uint32_t(r.below(2)) << 31;
  const std::uint32_t fraction = r.next() & 0x7fffff;
  switch (family) {
  case 1:
    return static_cast<std::uint32_t>(r.next());
  case 2:
    return sign | (std::uint32_t(r.below(8)) << 23) | fraction;
  case 3:
    return sign | (std::uint32_t(100 + r.below(60)) << 23) |
           (fraction & 0x7f0000);
  case 4:
    if (r.below(10) == 0)
      return std::uint32_t(special_bf16(r)) << 16;
    [[fallthrough]];
  default:
    return sign | (std::uint32_t(119 + r.below(17)) << 23) | fraction;
  }
}

std::uint8_t input_byte(Random &r, int family) {
  static constexpr std::uint8_t extremes[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
  return family == 0 ? static_cast<std::uint8_t>(r.next())
                     : extremes[r.below(5)];
}

std::uint32_t accumulator_i32(Random &r, int family) {
  static constexpr std::uint32_t extremes[] = {0x7fffffff, 0x80000000,
                                               0x7fff0000, 0x80010000, 0};
  return family == 0 ? static_cast<std::uint32_t>(r.next())
                     : extremes[r.below(5)];
}

/// A tile-shaped operand in memory: `rows` rows of `colsb` bytes, a row
/// stride of colsb plus 0..3 dwords.
struct Operand {
  int rows, colsb;
  std::ptrdiff_t stride;
  std::vector<std::uint8_t> bytes;
  Operand(Random &r, int rows_, int colsb_)
      : rows(rows_), colsb(colsb_), stride(colsb_ + 4 * r.below(4)),
        bytes(std::size_t(rows_) * stride) {}
  std::uint8_t *row(int i) { return bytes.data() + i * stride; }
};

using Out = std::vector<std::uint8_t>;

void emit(Out &out, const void *p, std::size_t n) {
  const auto *b = static_cast<const std::uint8_t *>(p);
  out.insert(out.end(), b, b + n);
}

/// One dot product C += A . B; `fill` writes the three operands' values.
template <class Fill, class Dot>
void dot_case(Out &out, Random &r, Fill fill, Dot dot) {
  const int rows = 1 + r.below(16), k4 = 1 + r.below(16), n = 1 + r.below(16);
  Operand c(r, rows, 4 * n), a(r, rows, 4 * k4), b(r, k4, 4 * n);
  fill(c, a, b);
  amx::tile_loadconfig(amx::make_tile_config(
      {{c.rows, c.colsb}, {a.rows, a.colsb}, {b.rows, b.colsb}}));
  amx::tile_loadd<0>(c.bytes.data(), c.stride);
  amx::tile_loadd<1>(a.bytes.data(), a.stride);
  amx::tile_loadd<2>(b.bytes.data(), b.stride);
  dot();
  Operand result(r, rows, 4 * n);
  std::memset(result.bytes.data(), 0xa5, result.bytes.size());
  amx::tile_stored<0>(result.bytes.data(), result.stride);
  emit(out, result.bytes.data(), result.bytes.size()); // gaps too: untouched
}

void bf16_cases(Out &out, Random &r, int trials) {
  for (int t = 0; t < trials; ++t) {
    const int family = t % 5;
    dot_case(
        out, r,
        [&](Operand &c, Operand &a, Operand &b) {
          for (int i = 0; i < c.rows; ++i)
            for (int j = 0; j < c.colsb; j += 4) {
              const std::uint32_t v = accumulator_f32(r, family);
              std::memcpy(c.row(i) + j, &v, 4);
            }
          for (Operand *x : {&a, &b})
            for (int i = 0; i < x->rows; ++i)
              for (int j = 0; j < x->colsb; j += 2) {
                const std::uint16_t v = input_bf16(r, family);
                std::memcpy(x->row(i) + j, &v, 2);
              }
        },
        [] { amx::tile_dpbf16ps<0, 1, 2>(); });
  }
}

template <class Dot> void int8_cases(Out &out, Random &r, int trials, Dot dot) {
  for (int t = 0; t < trials; ++t) {
    const int family = t % 2;
    dot_case(
        out, r,
        [&](Operand &c, Operand &a, Operand &b) {
          for (int i = 0; i < c.rows; ++i)
            for (int j = 0; j < c.colsb; j += 4) {
              const std::uint32_t v = accumulator_i32(r, family);
              std::memcpy(c.row(i) + j, &v, 4);
            }
          for (Operand *x : {&a, &b})
            for (int i = 0; i < x->rows; ++i)
              for (int j = 0; j < x->colsb; ++j)
                x->row(i)[j] = input_byte(r, family);
        },
        dot);
  }
}

template <class Kind> void gemm_cases(Out &out, Random &r) {
  using Input = typename Kind::Input;
  static constexpr int shapes[][3] = {{1, 1, 1},    {1, 37, 50},  {17, 33, 70},
                                      {33, 16, 32}, {48, 48, 130}, {5, 100, 64},
                                      {16, 16, 33}, {64, 80, 200}};
  for (const auto &[M, N, K] : shapes) {
    std::vector<Input> a(std::size_t(M) * K), b(std::size_t(K) * N);
    for (Input &x : a)
      x = static_cast<Input>(sizeof(Input) == 2 ? input_bf16(r, 0)
                                                : input_byte(r, 0));
    for (Input &x : b)
      x = static_cast<Input>(sizeof(Input) == 2 ? input_bf16(r, 0)
                                                : input_byte(r, 0));
    const std::vector<Input> ap = tiled_gemm::pack_a<Kind>(a.data(), M, K);
    const std::vector<Input> bp = tiled_gemm::pack_b<Kind>(
        b.data(), K, N, tiled_gemm::vnni_offset<Kind>);
    std::vector<typename Kind::Accumulator> c(std::size_t(M) * N);
    tiled_gemm::gemm<Kind>(ap.data(), bp.data(), c.data(), M, N,
                           tiled_gemm::padded_k<Kind>(K), N);
    emit(out, c.data(), c.size() * sizeof(c[0]));
  }
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s RESULTS\n", argv[0]);
    return 2;
  }
  const bool native = amx::implementation == amx::Implementation::native;
  if (native)
    amx::require_amx("amx_exact");
  Out out;
  Random r{0x9e3779b97f4a7c15ull};
  bf16_cases(out, r, 5000);
  int8_cases(out, r, 500, [] { amx::tile_dpbssd<0, 1, 2>(); });
  int8_cases(out, r, 500, [] { amx::tile_dpbsud<0, 1, 2>(); });
  int8_cases(out, r, 500, [] { amx::tile_dpbusd<0, 1, 2>(); });
  int8_cases(out, r, 500, [] { amx::tile_dpbuud<0, 1, 2>(); });
  gemm_cases<tiled_gemm::Bf16>(out, r);
  gemm_cases<tiled_gemm::Int8>(out, r);
  amx::tile_release();
  std::FILE *f = std::fopen(argv[1], "wb");
  if (!f || std::fwrite(out.data(), 1, out.size(), f) != out.size() ||
      std::fclose(f) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  std::uint64_t hash = 0xcbf29ce484222325ull; // FNV-1a
  for (std::uint8_t byte : out)
    hash = (hash ^ byte) * 0x100000001b3ull;
  std::printf("implementation = %s\nbytes = %zu\nfnv1a = %016llx\n",
              native ? "native" : "emulated", out.size(),
              static_cast<unsigned long long>(hash));
  return 0;
}
