"""CUDA C++ kernels: `ModelNew` built with `load_inline(cuda_sources=...)`.

- RUN (a CUDA GPU and a CUDA build of torch): the extension is built for the target
  architecture (`TORCH_CUDA_ARCH_LIST`, e.g. 9.0a on Hopper so wgmma is allowed), checked and
  timed on the GPU with CUDA events; resource usage is read from the built library.
- COMPILE_ONLY (no GPU): nvcc compiles the CUDA sources for the target with the flags the
  real build would use; stage `compiled` carries ptxas's register / shared memory / spill
  figures. Nothing is linked or run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kernelsearch.backends import nvcc, resource_usage
from kernelsearch.backends.arch import cuda_gpu_available, default_gpu_arch, parse_arch
from kernelsearch.backends.base import RunMode, WorkerContext
from kernelsearch.config import EvalConfig
from kernelsearch.errors import BackendUnavailable
from kernelsearch.harness import buildcache
from kernelsearch.harness.timing import CudaEventTimer, Timer

BUILD_JOBS = "4"  # ninja jobs per extension build (one .cu and one .cpp: more never helps)
RESOURCES_FILE = "resources.json"


class CudaBackend:
    name = "cuda"
    language = "CUDA C++ (torch load_inline with cuda_sources)"
    device_kind = "cuda"

    def run_mode(self, config: EvalConfig) -> RunMode:
        if cuda_gpu_available():
            return RunMode.RUN
        if nvcc.nvcc_path() is None:
            raise BackendUnavailable(
                "the cuda backend needs a CUDA GPU, or nvcc to compile ahead of time without "
                "one: install the CUDA toolkit (or set CUDA_HOME), or use --backend cpu"
            )
        return RunMode.COMPILE_ONLY

    def default_arch(self) -> str:
        return default_gpu_arch()

    def worker_env(self, config: EvalConfig, mode: RunMode) -> dict[str, str]:
        arch = parse_arch(config.arch or self.default_arch())
        env = {"TORCH_CUDA_ARCH_LIST": arch.torch_arch_list, "MAX_JOBS": BUILD_JOBS}
        home = nvcc.cuda_home()
        if home is not None:
            env["CUDA_HOME"] = str(home)
        return env

    def memory_mode(self, mode: RunMode) -> str:
        # A CUDA context reserves far more address space than it uses: limit resident memory.
        return "rss" if mode is RunMode.RUN else "address_space"

    # ---- inside the worker ----
    def prepare(self, ctx: WorkerContext) -> Any:
        import torch

        toolchain = (
            f"cuda|{nvcc.nvcc_version()}|torch {torch.__version__}|{ctx.arch}|{ctx.mode.value}"
        )
        hook = nvcc.CompileOnly(arch=ctx.arch) if ctx.mode is RunMode.COMPILE_ONLY else None
        return buildcache.install(ctx.cache_dir / "builds", toolchain=toolchain, compile_only=hook)

    def device(self, ctx: WorkerContext) -> str:
        # The executor sets CUDA_VISIBLE_DEVICES per run: the assigned GPU is always cuda:0.
        return "cuda:0" if ctx.mode is RunMode.RUN else "cpu"

    def timer(self, ctx: WorkerContext) -> Timer:
        return CudaEventTimer()

    def synchronize(self) -> None:
        import torch

        if torch.cuda.is_initialized():
            torch.cuda.synchronize()

    def resources(self, prepared: Any) -> dict[str, Any]:
        """Registers, shared memory and local memory per kernel of the CUDA builds loaded here."""
        kernels: list[resource_usage.KernelResources] = []
        for build in getattr(prepared, "builds", []):
            if build.get("cuda"):
                kernels += _built_kernels(Path(prepared.root) / build["key"])
        if not kernels:
            return {}
        return resource_usage.summarize(kernels, source="cuobjdump --dump-resource-usage")


def _built_kernels(build_dir: Path) -> list[resource_usage.KernelResources]:
    """Resource usage of one built extension, read once and kept next to it."""
    import json

    cached = build_dir / RESOURCES_FILE
    if cached.is_file():
        return [resource_usage.KernelResources(**k) for k in json.loads(cached.read_text())]
    libraries = sorted(build_dir.glob("*.so"))
    if not libraries:
        return []
    kernels = nvcc.cuobjdump_resources(libraries[-1])
    try:
        cached.write_text(json.dumps([k.to_dict() for k in kernels]))
    except OSError:
        pass
    return kernels
