"""GPU architecture names and detection, shared by the CUDA and Triton backends.

An architecture is written the way nvcc names it: `sm_90a`, `sm_80`, `sm_120a`. The same
string becomes `TORCH_CUDA_ARCH_LIST=9.0a` for `load_inline` builds, `-gencode` flags for
compile-only nvcc runs, and `GPUTarget("cuda", 90, 32)` for Triton's ahead-of-time compiles.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache

from kernelsearch.errors import ConfigError

log = logging.getLogger(__name__)

DEFAULT_GPU_ARCH = "sm_90a"  # H100/H200: the GPUs users run kernelsearch on most
NVIDIA_SMI_TIMEOUT_S = 20.0
_ARCH = re.compile(r"^(?:sm_?|compute_)?(\d{2,3})([af]?)$")
_DOTTED = re.compile(r"^(\d{1,2})\.(\d)([af]?)$")


@dataclass(frozen=True)
class CudaArch:
    major: int
    minor: int
    suffix: str = ""  # "a": architecture-specific features (wgmma on sm_90a), "f": family

    @property
    def capability(self) -> int:
        return self.major * 10 + self.minor

    @property
    def sm(self) -> str:
        return f"sm_{self.capability}{self.suffix}"

    @property
    def torch_arch_list(self) -> str:
        """The `TORCH_CUDA_ARCH_LIST` entry `load_inline` turns into a `-gencode` flag."""
        return f"{self.major}.{self.minor}{self.suffix}"

    @property
    def gencode(self) -> str:
        cap = f"{self.capability}{self.suffix}"
        return f"-gencode=arch=compute_{cap},code=sm_{cap}"


def parse_arch(arch: str) -> CudaArch:
    """`sm_90a`, `sm90a`, `90a`, `9.0a` or `compute_90a` -> CudaArch(9, 0, "a")."""
    text = arch.strip().lower()
    if m := _ARCH.match(text):
        digits, suffix = m.groups()
        return CudaArch(int(digits[:-1]), int(digits[-1]), suffix)
    if m := _DOTTED.match(text):
        return CudaArch(int(m.group(1)), int(m.group(2)), m.group(3))
    raise ConfigError(
        f"unknown GPU architecture {arch!r}; use nvcc's spelling, e.g. --arch sm_90a (H100), "
        "sm_80 (A100), sm_89 (L40S, RTX 4090)"
    )


def arch_for_capability(major: int, minor: int) -> str:
    """The architecture to build for on a device of this compute capability.

    Hopper and newer get the `a` variant so architecture-specific instructions (wgmma, TMA
    multicast) are allowed; the binary then runs only on that exact architecture.
    """
    return CudaArch(major, minor, "a" if major >= 9 else "").sm


@lru_cache(maxsize=1)
def cuda_gpu_available() -> bool:
    """True when torch can run CUDA kernels here (a CUDA build of torch and a visible GPU)."""
    try:
        import torch

        return bool(torch.version.cuda) and torch.cuda.is_available()
    except Exception as e:  # noqa: BLE001 - a broken driver means "no GPU" for our purposes
        log.info("CUDA not usable: %s", e)
        return False


@lru_cache(maxsize=1)
def local_arch() -> str | None:
    """Architecture of the first visible NVIDIA GPU, or None without one.

    Asks nvidia-smi first so the orchestrator does not initialise CUDA just to learn a name;
    falls back to torch.
    """
    if not cuda_gpu_available():
        return None
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            out = subprocess.run(
                [smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                capture_output=True,
                text=True,
                timeout=NVIDIA_SMI_TIMEOUT_S,
            ).stdout.split()
            if out and (m := _DOTTED.match(out[0])):
                return arch_for_capability(int(m.group(1)), int(m.group(2)))
        except (OSError, subprocess.TimeoutExpired):
            pass
    import torch

    major, minor = torch.cuda.get_device_capability(0)
    return arch_for_capability(major, minor)


def default_gpu_arch() -> str:
    """The local GPU's architecture, else the default target (sm_90a)."""
    return local_arch() or DEFAULT_GPU_ARCH
