#include "warpspan/core/backend.hpp"

#include "warpspan/core/error.hpp"

namespace warpspan {

backend_kind parse_backend(std::string_view word) {
  if (word == "cpu") return backend_kind::cpu;
  if (word == "cuda") return backend_kind::cuda;
  if (word == "auto") return backend_kind::automatic;
  throw input_error(param("backend") + ": unknown backend '" + std::string(word) + "' (expected cpu, cuda or auto)");
}

std::string to_string(backend_kind kind) {
  switch (kind) {
    case backend_kind::cpu: return "cpu";
    case backend_kind::cuda: return "cuda";
    case backend_kind::automatic: return "auto";
  }
  return "?";
}

std::string cuda_backend_name() { return cuda_emulated() ? "cuda-emulated" : "cuda"; }

void require_cuda_device(const message& who, const message& advice) {
  if (!cuda_compiled()) throw not_compiled(who + ": this build has no CUDA backend (built without nvcc)" + advice);
  if (cuda_device_count() > 0) return;
  const std::string problem = cuda_device_problem();
  throw input_error(who + ": " + (problem.empty() ? std::string("no CUDA device is available") : problem) + advice);
}

backend_kind resolve_backend(backend_kind requested) {
  if (requested == backend_kind::cpu) return requested;
  // auto: a real device. The emulation build's device is for its tests (--backend cuda), about a
  // thousand times slower than the CPU backend, so auto stays on the CPU there.
  const bool device = cuda_device_count() > 0 && !cuda_emulated();
  if (requested == backend_kind::automatic) return device ? backend_kind::cuda : backend_kind::cpu;
  if (!cuda_compiled())
    throw input_error(param("backend", "cuda") + ": this build has no CUDA backend (built without nvcc); use " +
                      param("backend", "cpu") + " or auto");
  require_cuda_device(param("backend", "cuda"), "; use " + param("backend", "cpu") + " or auto");
  return requested;
}

}  // namespace warpspan
