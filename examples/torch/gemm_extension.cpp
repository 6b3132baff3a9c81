//===- examples/torch/gemm_extension.cpp - tf's GEMM on torch tensors -----===//
//
// A PyTorch C++/CUDA extension whose one function, `gemm(a, b)`, returns
// a @ b computed by the kernel of examples/gemm/optimal.cpp -- through
// tf::launch, which finds the launcher that the CUDA backend's generated
// optimal.tf.cu (built into the same extension) registered for the kernel.
//
// The generated launcher stops the process (std::abort, runtime/README.md)
// when CUDA refuses a tensor, so everything it needs is checked here first
// and refused with a Python exception (TORCH_CHECK -> RuntimeError) that says
// what was expected and what came: two 2-D bf16 tensors on the same CUDA
// device (an sm_90 GPU: the .tf.cu is compiled for sm_90a only), row-major
// contiguous, inner extents that agree, rows a multiple of 16 bytes and data
// 16-byte aligned (TMA's rules for a tensor map), extents that fit an int
// (the launcher's), and torch's current stream the default one (the launcher
// launches on it).
//
// Built by torch.utils.cpp_extension.load (tf_gemm.py); the kernel's
// source is included with its CPU `main` renamed, as test/gpu does.
//
//===----------------------------------------------------------------------===//
#define main optimal_example_main
#include "optimal.cpp"
#undef main

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>

namespace {

/// Bytes a TMA tensor map asks of row strides and base addresses.
constexpr std::int64_t tma_alignment = 16;

// Numbers in messages are formatted here, not streamed through c10::str:
// on the GPU machine (torch 2.11 wheel, g++ from /opt/gcc, -std=c++20) an
// integer streamed into the message crashed the process instead of raising.
std::string text(std::int64_t n) { return std::to_string(n); }

std::string text(c10::IntArrayRef extents) {
  std::string s = "[";
  for (std::size_t i = 0; i < extents.size(); ++i)
    s += (i ? ", " : "") + text(extents[i]);
  return s + "]";
}

std::string text(const void *address) {
  char buffer[2 + 2 * sizeof(void *) + 1];
  std::snprintf(buffer, sizeof buffer, "%p", address);
  return buffer;
}

void check_operand(const torch::Tensor &t, const char *name) {
  TORCH_CHECK(t.dim() == 2, "tf gemm: ", name, " must be a 2-D matrix, got ",
              text(t.dim()), "-D tensor of shape ", text(t.sizes()));
  TORCH_CHECK(t.scalar_type() == torch::kBFloat16, "tf gemm: ", name,
              " must be bfloat16 (the kernel's element type), got ",
              t.scalar_type());
  TORCH_CHECK(t.is_cuda(), "tf gemm: ", name,
              " must be on a CUDA device, got device ", t.device());
  TORCH_CHECK(t.is_contiguous(), "tf gemm: ", name,
              " must be contiguous (row-major), got strides ",
              text(t.strides()), " for shape ", text(t.sizes()),
              "; call .contiguous() first");
  for (int d = 0; d < 2; ++d)
    TORCH_CHECK(t.size(d) <= INT_MAX, "tf gemm: ", name, " extent ", text(d),
                " must be at most ", text(INT_MAX), ", got ", text(t.size(d)));
  const std::int64_t row_bytes = t.size(1) * t.element_size();
  TORCH_CHECK(row_bytes % tma_alignment == 0, "tf gemm: ", name,
              " must have rows of a multiple of ", text(tma_alignment),
              " bytes (extent 1 a multiple of 8 bf16), got extent 1 = ",
              text(t.size(1)));
  TORCH_CHECK(reinterpret_cast<std::uintptr_t>(t.data_ptr()) % tma_alignment ==
                  0,
              "tf gemm: ", name, " data must be ", text(tma_alignment),
              "-byte aligned, got address ", text(t.data_ptr()),
              " (storage offset ", text(t.storage_offset()), ")");
}

/// a (M x K) @ b (K x N) -> M x N, bf16 in and out, f32 accumulation.
torch::Tensor matmul(const torch::Tensor &a, const torch::Tensor &b) {
  check_operand(a, "a");
  check_operand(b, "b");
  TORCH_CHECK(a.device() == b.device(), "tf gemm: a and b must be on the same "
              "device, got a on ", a.device(), " and b on ", b.device());
  TORCH_CHECK(a.size(1) == b.size(0), "tf gemm: inner extents must agree "
              "(a is M x K, b is K x N), got a ", text(a.sizes()), " and b ",
              text(b.sizes()));
  const cudaDeviceProp *props =
      at::cuda::getDeviceProperties(a.device().index());
  TORCH_CHECK(props->major == 9 && props->minor == 0,
              "tf gemm: the kernel is compiled for sm_90a (H100/H200), got ",
              props->name, " (sm_", text(props->major), text(props->minor),
              ")");
  const c10::cuda::CUDAGuard guard(a.device());
  TORCH_CHECK(at::cuda::getCurrentCUDAStream() ==
                  at::cuda::getDefaultCUDAStream(),
              "tf gemm: tf's launcher runs on the default stream; got current "
              "stream ", text(at::cuda::getCurrentCUDAStream().id()));

  const std::int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  torch::Tensor out = torch::empty({M, N}, a.options());
  if (M == 0 || N == 0)
    return out;
  if (K == 0) // an empty sum; the kernel has no K tile to start from
    return out.zero_();
  auto data = [](const torch::Tensor &t) {
    return reinterpret_cast<tf::bf16 *>(t.data_ptr<at::BFloat16>());
  };
  tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(data(a), {M, K}),
             gemm::Matrix(data(b), {K, N}), gemm::Matrix(data(out), {M, N}));
  return out;
}

} // namespace

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("gemm", &matmul,
        "a @ b by tf's generated H200 GEMM (bf16 in and out, f32 accumulation)",
        pybind11::arg("a"), pybind11::arg("b"));
}
