"""Hardware profiles and the numbers derived from them: roofline bounds and occupancy.

A profile is a TOML file in `hardware/` (one per part: peak bandwidth, peak FLOP/s per dtype,
cache sizes, per-SM limits, compiler target). Users add their own in
`~/.config/kernelsearch/hardware/`; a user profile with the same name replaces the built-in.

Everything here except `detect` is a pure function of a profile and its arguments.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import math
import os
import platform
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kernelsearch.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

log = logging.getLogger(__name__)

KINDS = ("gpu", "cpu")
GENERIC_CPU_PROFILE = "cpu-x86-generic"
X86_MACHINES = ("x86_64", "amd64", "i386", "i686")
TERA = 1e12
GIGA = 1e9
MS_PER_S = 1e3
# detect() asks a child process for the GPU name; the child imports torch (a few seconds).
DEVICE_QUERY_TIMEOUT_S = 120.0

# Canonical dtype keys of [peak_tflops], and the spellings accepted for each.
DTYPE_ALIASES: dict[str, tuple[str, ...]] = {
    "fp64": ("float64", "double", "f64"),
    "fp32": ("float32", "float", "f32"),
    "tf32": ("tensorfloat32",),
    "fp16": ("float16", "half", "f16"),
    "bf16": ("bfloat16",),
    "fp8": ("float8", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"),
    "int8": ("qint8", "uint8", "quint8", "i8"),
}
_DTYPE_LOOKUP = {alias: key for key, aliases in DTYPE_ALIASES.items() for alias in (key, *aliases)}


def canonical_dtype(dtype: object) -> str:
    """`torch.float32`, "float32", "fp32" -> "fp32". Raises ConfigError for unknown spellings."""
    text = str(dtype).strip().lower().removeprefix("torch.")
    try:
        return _DTYPE_LOOKUP[text]
    except KeyError:
        raise ConfigError(
            f"unknown dtype {dtype!r}; use one of {', '.join(DTYPE_ALIASES)} "
            "(or a torch dtype name such as float32)"
        ) from None


# ---------------------------------------------------------------------------------------
# Profile


@dataclass(frozen=True)
class SMLimits:
    """Per-SM (NVIDIA) / per-CU (AMD) resource limits. Unknown limits are None."""

    max_threads_per_sm: int | None = None
    max_blocks_per_sm: int | None = None
    max_threads_per_block: int | None = None
    warp_size: int | None = None
    registers_per_sm: int | None = None
    max_registers_per_block: int | None = None
    max_registers_per_thread: int | None = None
    register_allocation_unit: int | None = None  # registers, allocated per warp
    warp_allocation_granularity: int | None = None  # warps
    shared_memory_per_sm: int | None = None  # bytes
    max_shared_memory_per_block: int | None = None  # bytes, opt-in maximum
    reserved_shared_memory_per_block: int | None = None  # bytes the runtime keeps per block
    shared_memory_allocation_unit: int | None = None  # bytes

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SMLimits:
        return cls(**d)


@dataclass(frozen=True)
class CompilerTarget:
    """How to compile for this part. Unused fields are None."""

    arch: str | None = None  # sm_90a, gfx942, x86-64
    compute_capability: str | None = None  # "9.0" (NVIDIA)
    nvcc_gencode: str | None = None
    triton_target: str | None = None  # "cuda:90", "hip:gfx942"
    hip_offload_arch: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CompilerTarget:
        return cls(**d)


@dataclass(frozen=True)
class HardwareProfile:
    """One hardware part. `peak_tflops` maps canonical dtype keys (fp32, bf16, ...) to dense
    peaks in TFLOP/s (TOP/s for int8); `compute_units` is SMs, CUs or CPU cores."""

    name: str
    kind: str  # "gpu" or "cpu"
    vendor: str
    description: str
    match: tuple[str, ...]
    exclude: tuple[str, ...]
    compute_units: int
    memory_gb: float
    memory_bandwidth_gbs: float
    l2_bytes: int
    peak_tflops: dict[str, float]
    limits: SMLimits = field(default_factory=SMLimits)
    compiler: CompilerTarget = field(default_factory=CompilerTarget)
    last_level_cache_bytes: int | None = None  # a cache beyond L2 (AMD Infinity Cache, CPU L3)
    source: str | None = field(default=None, compare=False)  # file it was loaded from

    def __hash__(self) -> int:  # peak_tflops is a dict; names identify profiles
        return hash(self.name)

    @property
    def flush_bytes(self) -> int:
        """Bytes a timing loop must write to evict every on-chip cache."""
        return max(self.l2_bytes, self.last_level_cache_bytes or 0)

    @property
    def memory_bandwidth(self) -> float:
        """Peak memory bandwidth in bytes/s."""
        return self.memory_bandwidth_gbs * GIGA

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "vendor": self.vendor,
            "description": self.description,
            "match": list(self.match),
            "exclude": list(self.exclude),
            "compute_units": self.compute_units,
            "memory_gb": self.memory_gb,
            "memory_bandwidth_gbs": self.memory_bandwidth_gbs,
            "l2_bytes": self.l2_bytes,
            "peak_tflops": dict(self.peak_tflops),
            "limits": self.limits.to_dict(),
            "compiler": self.compiler.to_dict(),
        }
        if self.last_level_cache_bytes is not None:
            d["last_level_cache_bytes"] = self.last_level_cache_bytes
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], origin: str = "<dict>") -> HardwareProfile:
        """Build and validate a profile; ConfigError names the file and the bad key."""
        return _profile_from_dict(d, origin)


_REQUIRED_KEYS: dict[str, type | tuple[type, ...]] = {
    "name": str,
    "kind": str,
    "vendor": str,
    "description": str,
    "match": list,
    "compute_units": int,
    "memory_gb": (int, float),
    "memory_bandwidth_gbs": (int, float),
    "l2_bytes": int,
    "peak_tflops": dict,
}
_OPTIONAL_KEYS: dict[str, type | tuple[type, ...]] = {
    "exclude": list,
    "limits": dict,
    "compiler": dict,
    "last_level_cache_bytes": int,
}


def _profile_from_dict(d: dict[str, Any], origin: str) -> HardwareProfile:
    d = dict(d)
    d.pop("source", None)
    unknown = sorted(set(d) - set(_REQUIRED_KEYS) - set(_OPTIONAL_KEYS))
    if unknown:
        raise ConfigError(f"{origin}: unknown key(s) {', '.join(unknown)}; check the spelling")
    missing = [k for k in _REQUIRED_KEYS if k not in d]
    if missing:
        raise ConfigError(f"{origin}: missing required key(s) {', '.join(missing)}")
    for key, types in {**_REQUIRED_KEYS, **_OPTIONAL_KEYS}.items():
        if key in d and (not isinstance(d[key], types) or isinstance(d[key], bool)):
            raise ConfigError(f"{origin}: '{key}' has the wrong type ({type(d[key]).__name__})")
    if d["kind"] not in KINDS:
        raise ConfigError(f"{origin}: kind must be one of {', '.join(KINDS)}, got {d['kind']!r}")
    for key in ("compute_units", "memory_bandwidth_gbs", "l2_bytes"):
        if d[key] <= 0:
            raise ConfigError(f"{origin}: '{key}' must be positive, got {d[key]}")
    peaks: dict[str, float] = {}
    for dtype, value in d["peak_tflops"].items():
        if dtype not in DTYPE_ALIASES:
            raise ConfigError(
                f"{origin}: [peak_tflops] key {dtype!r} is not one of {', '.join(DTYPE_ALIASES)}"
            )
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
            raise ConfigError(f"{origin}: [peak_tflops] {dtype} must be a positive number")
        peaks[dtype] = float(value)
    if "fp32" not in peaks:
        raise ConfigError(f"{origin}: [peak_tflops] must give at least fp32")
    try:
        limits = SMLimits.from_dict(d.get("limits", {}))
        compiler = CompilerTarget.from_dict(d.get("compiler", {}))
    except TypeError as e:
        raise ConfigError(f"{origin}: bad [limits] or [compiler] entry: {e}") from None
    bad_limits = [k for k, v in limits.to_dict().items() if not isinstance(v, int) or v <= 0]
    if bad_limits:
        raise ConfigError(f"{origin}: [limits] {', '.join(bad_limits)} must be positive integers")
    return HardwareProfile(
        name=d["name"],
        kind=d["kind"],
        vendor=d["vendor"],
        description=d["description"],
        match=tuple(str(s) for s in d["match"]),
        exclude=tuple(str(s) for s in d.get("exclude", [])),
        compute_units=d["compute_units"],
        memory_gb=float(d["memory_gb"]),
        memory_bandwidth_gbs=float(d["memory_bandwidth_gbs"]),
        l2_bytes=d["l2_bytes"],
        peak_tflops=peaks,
        limits=limits,
        compiler=compiler,
        last_level_cache_bytes=d.get("last_level_cache_bytes"),
        source=None if origin == "<dict>" else origin,
    )


# ---------------------------------------------------------------------------------------
# Loading and lookup


def builtin_profile_dirs() -> list[Path]:
    """Where the shipped profiles live: the source tree's `hardware/`, else an installed copy
    under `<prefix>/share/kernelsearch/hardware` (setuptools data-files)."""
    candidates = [
        Path(__file__).resolve().parent.parent / "hardware",
        Path(sys.prefix) / "share" / "kernelsearch" / "hardware",
    ]
    for path in candidates:
        if path.is_dir():
            return [path]
    return []


def user_profile_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "kernelsearch" / "hardware"


def default_profile_dirs() -> list[Path]:
    dirs = builtin_profile_dirs()
    user = user_profile_dir()
    if user.is_dir():
        dirs.append(user)
    return dirs


def load_profile_file(path: Path) -> HardwareProfile:
    try:
        data = tomllib.loads(Path(path).read_text())
    except OSError as e:
        raise ConfigError(f"{path}: cannot read hardware profile: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: malformed TOML: {e}") from None
    return _profile_from_dict(data, str(path))


def load_profiles(dirs: Iterable[Path] | None = None) -> dict[str, HardwareProfile]:
    """Every `*.toml` profile in `dirs` (default: built-in, then the user's config dir).

    A later directory's profile replaces an earlier one of the same name; two files with one
    name in the same directory are an error.
    """
    search = default_profile_dirs() if dirs is None else [Path(d) for d in dirs]
    if not search:
        log.warning("no hardware profile directory found; reinstall kernelsearch or pass dirs")
    profiles: dict[str, HardwareProfile] = {}
    for directory in search:
        seen_here: dict[str, Path] = {}
        for path in sorted(Path(directory).glob("*.toml")):
            profile = load_profile_file(path)
            if profile.name in seen_here:
                raise ConfigError(
                    f"{path}: profile name {profile.name!r} is also used by "
                    f"{seen_here[profile.name]}; rename one"
                )
            seen_here[profile.name] = path
            if profile.name in profiles:
                log.info(
                    "hardware profile %s from %s replaces %s",
                    profile.name,
                    path,
                    profiles[profile.name].source,
                )
            profiles[profile.name] = profile
    return profiles


def get_profile(name: str, profiles: dict[str, HardwareProfile] | None = None) -> HardwareProfile:
    profiles = load_profiles() if profiles is None else profiles
    try:
        return profiles[name]
    except KeyError:
        available = ", ".join(sorted(profiles)) or "none"
        raise ConfigError(
            f"unknown hardware profile {name!r}; available: {available}. Add your own as "
            f"{user_profile_dir()}/{name}.toml"
        ) from None


def match_profile(
    device_name: str,
    profiles: dict[str, HardwareProfile] | None = None,
    kind: str | None = None,
) -> HardwareProfile | None:
    """The profile whose `match` substring occurs in `device_name` (case-insensitive) and none
    of whose `exclude` substrings do; the longest matching substring wins, then the name."""
    profiles = load_profiles() if profiles is None else profiles
    text = device_name.lower()
    best: tuple[int, str] | None = None
    for profile in profiles.values():
        if kind is not None and profile.kind != kind:
            continue
        if any(ex.lower() in text for ex in profile.exclude):
            continue
        hits = [len(m) for m in profile.match if m and m.lower() in text]
        if hits:
            key = (-max(hits), profile.name)
            if best is None or key < best:
                best = key
    return profiles[best[1]] if best else None


# ---------------------------------------------------------------------------------------
# Detection (the one impure function here)

_QUERY_GPU = """
import json, sys, torch
i = int(sys.argv[1])
if not torch.cuda.is_available() or torch.cuda.device_count() <= i:
    print(json.dumps(None))
else:
    print(json.dumps(torch.cuda.get_device_name(i)))
"""


@functools.lru_cache(maxsize=8)
def _gpu_name_from_child(index: int) -> str | None:
    """Ask a child process for the GPU name, so this process never initialises CUDA."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _QUERY_GPU, str(index)],
            capture_output=True,
            text=True,
            timeout=DEVICE_QUERY_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        log.warning("could not query the GPU name: %s", e)
        return None
    if done.returncode != 0:
        log.warning("GPU name query failed: %s", done.stderr.strip()[-500:])
        return None
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        log.warning("GPU name query printed %r", done.stdout[-200:])
        return None


def gpu_device_name(index: int = 0) -> str | None:
    """The name torch reports for GPU `index`, or None without one.

    If this process has already initialised CUDA, torch is asked directly; otherwise the name
    comes from a child process, because initialising CUDA here would break CUDA in processes
    this one forks later (the harness forks sandbox workers).
    """
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        if torch.cuda.device_count() <= index:
            return None
        return torch.cuda.get_device_name(index)
    return _gpu_name_from_child(index)


def cpu_model_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _detect_cpu(profiles: dict[str, HardwareProfile]) -> HardwareProfile | None:
    model = cpu_model_name()
    matched = match_profile(model, profiles, kind="cpu")
    if matched is not None:
        return matched
    if platform.machine().lower() in X86_MACHINES and GENERIC_CPU_PROFILE in profiles:
        log.info("no CPU profile matches %r; using %s", model, GENERIC_CPU_PROFILE)
        return profiles[GENERIC_CPU_PROFILE]
    log.warning("no hardware profile for CPU %r; add one in %s", model, user_profile_dir())
    return None


def detect(
    backend_device: str = "auto", profiles: dict[str, HardwareProfile] | None = None
) -> HardwareProfile | None:
    """The profile of this machine's device.

    `backend_device`: "auto" (GPU 0 if there is one, else the CPU), "cuda", "cuda:N", or
    "cpu". Returns None when the device has no matching profile (a warning names where to add
    one). Safe to call before forking: CUDA is not initialised in this process (see
    `gpu_device_name`).
    """
    profiles = load_profiles() if profiles is None else profiles
    device = backend_device.strip().lower()
    if device == "cpu":
        return _detect_cpu(profiles)
    if device == "auto" or device == "cuda" or device.startswith("cuda:"):
        index_text = device.partition(":")[2] or "0"
        if not index_text.isdigit():
            raise ConfigError(f"bad device {backend_device!r}; use cuda, cuda:N, cpu or auto")
        name = gpu_device_name(int(index_text))
        if name is None:
            if device == "auto":
                return _detect_cpu(profiles)
            log.warning("no CUDA/ROCm device %s visible", backend_device)
            return None
        matched = match_profile(name, profiles, kind="gpu")
        if matched is None:
            log.warning(
                "no hardware profile matches GPU %r; add one in %s (see hardware/*.toml)",
                name,
                user_profile_dir(),
            )
        return matched
    raise ConfigError(f"bad device {backend_device!r}; use auto, cpu, cuda or cuda:N")


# ---------------------------------------------------------------------------------------
# Roofline


def peak_flops(profile: HardwareProfile, dtype: object) -> float:
    """Dense peak in FLOP/s (OP/s for int8) for `dtype` ("fp32", "bfloat16", torch.float16...)."""
    key = canonical_dtype(dtype)
    try:
        return profile.peak_tflops[key] * TERA
    except KeyError:
        raise ConfigError(
            f"hardware profile {profile.name!r} lists no {key} peak (has "
            f"{', '.join(profile.peak_tflops)}); add it under [peak_tflops] in "
            f"{profile.source or 'its profile file'}"
        ) from None


def _check_work(flops: float, bytes_moved: float) -> None:
    if flops < 0 or bytes_moved < 0 or math.isnan(flops) or math.isnan(bytes_moved):
        raise ValueError(f"flops and bytes must be >= 0, got {flops} and {bytes_moved}")


def roofline_ms(profile: HardwareProfile, flops: float, bytes_moved: float, dtype: object) -> float:
    """Lower bound on run time in ms: max(flops / peak FLOP/s, bytes / peak bandwidth)."""
    _check_work(flops, bytes_moved)
    compute_s = flops / peak_flops(profile, dtype)
    memory_s = bytes_moved / profile.memory_bandwidth
    return max(compute_s, memory_s) * MS_PER_S


@dataclass(frozen=True)
class Roofline:
    """How a measured time compares with the profile's roofline.

    `bound` is "compute" when the FLOP time exceeds the byte time, else "memory" (ties and
    zero work count as memory). `roofline_fraction` = roofline_ms / measured_ms: 1.0 is at
    the bound, above 1.0 is faster than the hardware allows (a measurement or reward-hack
    problem). `arithmetic_intensity` is FLOP/byte, None when no bytes move.
    """

    profile: str
    dtype: str
    flops: float
    bytes_moved: float
    measured_ms: float
    roofline_ms: float
    arithmetic_intensity: float | None
    ridge_intensity: float  # FLOP/byte where the bound switches from memory to compute
    bound: str
    achieved_tflops: float
    achieved_gbs: float
    flop_fraction: float  # achieved FLOP/s / peak FLOP/s
    bandwidth_fraction: float  # achieved bytes/s / peak bandwidth
    roofline_fraction: float

    @property
    def exceeds_roofline(self) -> bool:
        return self.roofline_fraction > 1.0

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Roofline:
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


def roofline_fractions(
    profile: HardwareProfile,
    flops: float,
    bytes_moved: float,
    dtype: object,
    measured_ms: float,
) -> Roofline:
    """Achieved fractions of peak FLOP/s and bandwidth for one measured run."""
    _check_work(flops, bytes_moved)
    if not measured_ms > 0:
        raise ValueError(f"measured_ms must be > 0, got {measured_ms}")
    peak = peak_flops(profile, dtype)
    bandwidth = profile.memory_bandwidth
    seconds = measured_ms / MS_PER_S
    bound_ms = roofline_ms(profile, flops, bytes_moved, dtype)
    return Roofline(
        profile=profile.name,
        dtype=canonical_dtype(dtype),
        flops=float(flops),
        bytes_moved=float(bytes_moved),
        measured_ms=float(measured_ms),
        roofline_ms=bound_ms,
        arithmetic_intensity=flops / bytes_moved if bytes_moved > 0 else None,
        ridge_intensity=peak / bandwidth,
        bound="compute" if flops / peak > bytes_moved / bandwidth else "memory",
        achieved_tflops=flops / seconds / TERA,
        achieved_gbs=bytes_moved / seconds / GIGA,
        flop_fraction=flops / seconds / peak,
        bandwidth_fraction=bytes_moved / seconds / bandwidth,
        roofline_fraction=bound_ms / measured_ms,
    )


# ---------------------------------------------------------------------------------------
# Occupancy (NVIDIA model: per-SM pooled registers and shared memory)

LIMITING_FACTORS = ("threads", "blocks", "registers", "shared_memory")
_OCCUPANCY_LIMITS = (
    "max_threads_per_sm",
    "max_blocks_per_sm",
    "max_threads_per_block",
    "warp_size",
    "registers_per_sm",
    "max_registers_per_block",
    "max_registers_per_thread",
    "register_allocation_unit",
    "warp_allocation_granularity",
    "shared_memory_per_sm",
    "max_shared_memory_per_block",
    "reserved_shared_memory_per_block",
    "shared_memory_allocation_unit",
)


@dataclass(frozen=True)
class Occupancy:
    """Theoretical occupancy of one kernel launch configuration on one SM.

    `blocks_per_sm` 0 means the configuration cannot launch (the limiting factor says why).
    On ties the factor listed first in LIMITING_FACTORS is reported.
    """

    blocks_per_sm: int
    active_warps: int
    max_warps: int
    occupancy: float  # active_warps / max_warps
    limiting_factor: str
    blocks_by_factor: dict[str, int]
    threads_per_block: int = 0  # the configuration this describes

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Occupancy:
        return cls(**d)


def _round_up(value: int, unit: int) -> int:
    return -(-value // unit) * unit


def occupancy(
    profile: HardwareProfile,
    threads_per_block: int,
    registers_per_thread: int,
    shared_mem_per_block: int,
) -> Occupancy:
    """Blocks and warps resident per SM, following the CUDA occupancy calculator:

    - warps per block = ceil(threads / warp size);
    - registers are allocated per warp, rounded up to `register_allocation_unit`; warps that
      fit are rounded down to `warp_allocation_granularity` (the SM's sub-partitions);
    - shared memory per block = round_up(requested + reserved, allocation unit), against the
      largest shared-memory carveout (`shared_memory_per_sm`).
    """
    if threads_per_block < 1 or registers_per_thread < 0 or shared_mem_per_block < 0:
        raise ValueError(
            "threads_per_block must be >= 1 and registers/shared memory >= 0, got "
            f"{threads_per_block}, {registers_per_thread}, {shared_mem_per_block}"
        )
    lim = profile.limits
    missing = [name for name in _OCCUPANCY_LIMITS if getattr(lim, name) is None]
    if missing:
        raise ConfigError(
            f"hardware profile {profile.name!r} lacks [limits] {', '.join(missing)}, so "
            f"occupancy cannot be computed for it; add them to {profile.source or 'its file'}"
        )
    warps_per_block = -(-threads_per_block // lim.warp_size)
    max_warps = lim.max_threads_per_sm // lim.warp_size

    by_threads = max_warps // warps_per_block
    if threads_per_block > lim.max_threads_per_block:
        by_threads = 0
    by_blocks = lim.max_blocks_per_sm

    if registers_per_thread > lim.max_registers_per_thread:
        by_registers = 0
    elif registers_per_thread == 0:
        by_registers = by_blocks
    else:
        regs_per_warp = _round_up(
            registers_per_thread * lim.warp_size, lim.register_allocation_unit
        )
        warps_fit = lim.max_registers_per_block // regs_per_warp
        warps_fit -= warps_fit % lim.warp_allocation_granularity
        blocks_per_register_file = warps_fit // warps_per_block
        by_registers = blocks_per_register_file * (
            lim.registers_per_sm // lim.max_registers_per_block
        )

    if shared_mem_per_block > lim.max_shared_memory_per_block:
        by_shared = 0
    else:
        smem = _round_up(
            shared_mem_per_block + lim.reserved_shared_memory_per_block,
            lim.shared_memory_allocation_unit,
        )
        by_shared = lim.shared_memory_per_sm // smem

    by_factor = {
        "threads": by_threads,
        "blocks": by_blocks,
        "registers": by_registers,
        "shared_memory": by_shared,
    }
    limiting = min(LIMITING_FACTORS, key=lambda f: (by_factor[f], LIMITING_FACTORS.index(f)))
    blocks = by_factor[limiting]
    active = blocks * warps_per_block
    return Occupancy(
        blocks_per_sm=blocks,
        active_warps=active,
        max_warps=max_warps,
        occupancy=active / max_warps,
        limiting_factor=limiting,
        blocks_by_factor=by_factor,
        threads_per_block=threads_per_block,
    )


def best_block_occupancy(
    profile: HardwareProfile, registers_per_thread: int, shared_mem_per_block: int
) -> tuple[int, Occupancy]:
    """The highest occupancy any block size (a multiple of the warp size) reaches with these
    per-thread registers and per-block shared memory, and the smallest block size reaching it:
    the ceiling to report when the launch configuration is not known (CUDA kernels launched
    from C++)."""
    lim = profile.limits
    if lim.warp_size is None or lim.max_threads_per_block is None:
        raise ConfigError(
            f"hardware profile {profile.name!r} lacks [limits] warp_size/max_threads_per_block"
        )
    best: tuple[int, Occupancy] | None = None
    for threads in range(lim.warp_size, lim.max_threads_per_block + 1, lim.warp_size):
        occ = occupancy(profile, threads, registers_per_thread, shared_mem_per_block)
        if best is None or occ.occupancy > best[1].occupancy:
            best = (threads, occ)
    assert best is not None
    return best


def profile_for_arch(
    arch: str, profiles: dict[str, HardwareProfile] | None = None
) -> HardwareProfile | None:
    """A GPU profile compiled for `arch` ("sm_90a", "sm_90"): the first by name. Parts of one
    architecture share their per-SM limits, so it answers occupancy questions for code compiled
    ahead of time with no device present; peaks differ between parts and must not be read."""
    profiles = load_profiles() if profiles is None else profiles
    family = arch.strip().lower().rstrip("af")
    for name in sorted(profiles):
        target = profiles[name].compiler.arch
        if profiles[name].kind == "gpu" and target and target.lower().rstrip("af") == family:
            return profiles[name]
    return None
