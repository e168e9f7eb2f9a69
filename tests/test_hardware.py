"""Hardware profiles, device matching, roofline and occupancy on hand-computed cases."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from kernelsearch import hardware
from kernelsearch.errors import ConfigError
from kernelsearch.hardware import (
    HardwareProfile,
    Occupancy,
    Roofline,
    best_block_occupancy,
    builtin_profile_dirs,
    canonical_dtype,
    detect,
    get_profile,
    load_profiles,
    match_profile,
    occupancy,
    peak_flops,
    profile_for_arch,
    roofline_fractions,
    roofline_ms,
)

REPO_HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
EXPECTED = {"h100-sxm", "h200", "a100-sxm-80gb", "l40s", "rtx-4090", "mi300x", "cpu-x86-generic"}


@pytest.fixture(scope="module")
def profiles() -> dict[str, HardwareProfile]:
    return load_profiles([REPO_HARDWARE])


@pytest.fixture(scope="module")
def h100(profiles) -> HardwareProfile:
    return profiles["h100-sxm"]


def _profile(**overrides) -> HardwareProfile:
    """A round-number test profile: 1 TFLOP/s fp32, 100 GB/s."""
    d = {
        "name": "toy",
        "kind": "gpu",
        "vendor": "test",
        "description": "toy",
        "match": ["Toy GPU"],
        "compute_units": 10,
        "memory_gb": 1,
        "memory_bandwidth_gbs": 100,
        "l2_bytes": 1024,
        "peak_tflops": {"fp32": 1.0, "bf16": 4.0},
    }
    d.update(overrides)
    return HardwareProfile.from_dict(d)


# ---------------------------------------------------------------------------------------
# Loading


def test_builtin_profiles_cover_the_documented_parts(profiles):
    assert EXPECTED <= set(profiles)


def test_default_load_finds_repo_profiles(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert builtin_profile_dirs() == [REPO_HARDWARE]
    assert EXPECTED <= set(load_profiles())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_profile_has_the_required_figures(profiles, name):
    p = profiles[name]
    assert p.kind in ("gpu", "cpu")
    assert p.vendor and p.description
    assert p.compute_units > 0 and p.memory_bandwidth_gbs > 0 and p.l2_bytes > 0
    assert p.memory_gb > 0
    assert p.peak_tflops["fp32"] > 0
    assert p.compiler.arch
    assert p.source and Path(p.source).name.endswith(".toml")
    if p.kind == "gpu":
        assert p.match, "a GPU profile must be matchable by device name"
        for key in ("fp16", "bf16", "tf32"):
            assert p.peak_tflops[key] >= p.peak_tflops["fp32"]
        assert p.limits.warp_size in (32, 64)
        assert p.limits.shared_memory_per_sm and p.limits.max_threads_per_block == 1024


@pytest.mark.parametrize("name", ["h100-sxm", "h200", "a100-sxm-80gb", "l40s", "rtx-4090"])
def test_nvidia_profiles_have_every_occupancy_limit_and_cuda_targets(profiles, name):
    p = profiles[name]
    lim = p.limits
    assert lim.to_dict().keys() >= set(hardware._OCCUPANCY_LIMITS)
    assert lim.max_threads_per_sm % lim.warp_size == 0
    assert lim.max_shared_memory_per_block <= lim.shared_memory_per_sm
    cc = p.compiler.compute_capability.replace(".", "")
    assert p.compiler.arch.startswith(f"sm_{cc}")
    assert p.compiler.triton_target == f"cuda:{cc}"
    assert f"code={p.compiler.arch}" in p.compiler.nvcc_gencode


def test_h100_figures_match_the_spec_sheet(h100):
    assert h100.compute_units == 132
    assert h100.memory_bandwidth_gbs == 3350
    assert h100.l2_bytes == 50 * 1024 * 1024
    assert h100.limits.shared_memory_per_sm == 228 * 1024
    assert h100.limits.max_shared_memory_per_block == 227 * 1024
    assert h100.compiler.arch == "sm_90a"
    assert 980 < h100.peak_tflops["bf16"] < 1000


def test_profile_round_trips_through_dict(profiles):
    for p in profiles.values():
        again = HardwareProfile.from_dict(p.to_dict())
        assert again == p
        assert hash(again) == hash(p)


def test_mi300x_flush_size_covers_the_infinity_cache(profiles):
    p = profiles["mi300x"]
    assert p.flush_bytes == 256 * 1024 * 1024 > p.l2_bytes


def test_user_profile_replaces_builtin_of_same_name(tmp_path):
    text = (REPO_HARDWARE / "l40s.toml").read_text().replace("= 864 ", "= 900 ")
    (tmp_path / "mine.toml").write_text(text)
    loaded = load_profiles([REPO_HARDWARE, tmp_path])
    assert loaded["l40s"].memory_bandwidth_gbs == 900
    assert loaded["h100-sxm"].memory_bandwidth_gbs == 3350


def test_two_files_with_one_name_in_a_dir_is_an_error(tmp_path):
    for f in ("a.toml", "b.toml"):
        (tmp_path / f).write_text((REPO_HARDWARE / "l40s.toml").read_text())
    with pytest.raises(ConfigError, match="also used by"):
        load_profiles([tmp_path])


@pytest.mark.parametrize(
    "change, message",
    [
        ({"kind": "tpu"}, "kind must be one of"),
        ({"peak_tflops": {"bf16": 1.0}}, "at least fp32"),
        ({"peak_tflops": {"fp32": 1.0, "fp4": 2.0}}, "fp4"),
        ({"peak_tflops": {"fp32": -1.0}}, "positive"),
        ({"memory_bandwidth_gbs": 0}, "positive"),
        ({"bandwith": 3}, "unknown key"),
        ({"limits": {"warp_size": 0}}, "positive integers"),
        ({"limits": {"warps": 2}}, "bad \\[limits\\]"),
        ({"compute_units": "many"}, "wrong type"),
    ],
)
def test_invalid_profiles_are_rejected_with_the_bad_key_named(change, message):
    with pytest.raises(ConfigError, match=message):
        _profile(**change)


def test_missing_required_key_is_named(tmp_path):
    (tmp_path / "x.toml").write_text('name = "x"\nkind = "gpu"\n')
    with pytest.raises(ConfigError, match=r"x\.toml: missing required key\(s\) vendor"):
        load_profiles([tmp_path])


def test_malformed_toml_names_the_file(tmp_path):
    (tmp_path / "bad.toml").write_text("name = \n")
    with pytest.raises(ConfigError, match="bad.toml: malformed TOML"):
        load_profiles([tmp_path])


def test_get_profile_unknown_names_the_available_ones(profiles):
    assert get_profile("h200", profiles).name == "h200"
    with pytest.raises(ConfigError, match="unknown hardware profile 'h900'.*h100-sxm"):
        get_profile("h900", profiles)


# ---------------------------------------------------------------------------------------
# Matching


@pytest.mark.parametrize(
    "device, expected",
    [
        ("NVIDIA H100 80GB HBM3", "h100-sxm"),
        ("nvidia h100 80gb hbm3", "h100-sxm"),
        ("NVIDIA H200", "h200"),
        ("NVIDIA A100-SXM4-80GB", "a100-sxm-80gb"),
        ("NVIDIA L40S", "l40s"),
        ("NVIDIA GeForce RTX 4090", "rtx-4090"),
        ("AMD Instinct MI300X", "mi300x"),
        # Different parts that share a substring must not match.
        ("NVIDIA H100 PCIe", None),
        ("NVIDIA H100 NVL", None),
        ("NVIDIA H200 NVL", None),
        ("NVIDIA GH200 480GB", None),
        ("NVIDIA A100-SXM4-40GB", None),
        ("NVIDIA A100 80GB PCIe", None),
        ("NVIDIA L40", None),
        ("NVIDIA GeForce RTX 4090 Laptop GPU", None),
        ("NVIDIA GeForce RTX 4090 D", None),
        ("Tesla T4", None),
        ("", None),
    ],
)
def test_match_profile_by_device_name(profiles, device, expected):
    got = match_profile(device, profiles)
    assert (got.name if got else None) == expected


def test_longest_match_wins(profiles):
    narrow = _profile(name="narrow", match=["Toy GPU Pro"])
    wide = _profile(name="wide", match=["Toy GPU"])
    both = {"wide": wide, "narrow": narrow}
    assert match_profile("Toy GPU Pro Max", both).name == "narrow"
    assert match_profile("Toy GPU", both).name == "wide"


def test_cpu_profile_matches_only_when_asked_for_cpu_kind():
    cpu = _profile(name="epyc", kind="cpu", match=["EPYC 9654"])
    assert match_profile("AMD EPYC 9654 96-Core", {"epyc": cpu}, kind="gpu") is None
    assert match_profile("AMD EPYC 9654 96-Core", {"epyc": cpu}, kind="cpu").name == "epyc"


# ---------------------------------------------------------------------------------------
# Detection


def test_detect_cpu_on_x86_falls_back_to_generic(profiles, monkeypatch):
    monkeypatch.setattr(hardware, "cpu_model_name", lambda: "Some Unknown CPU")
    monkeypatch.setattr(hardware.platform, "machine", lambda: "x86_64")
    assert detect("cpu", profiles).name == "cpu-x86-generic"


def test_detect_cpu_prefers_a_matching_cpu_profile(profiles, monkeypatch):
    mine = _profile(name="my-epyc", kind="cpu", match=["EPYC 9654"])
    monkeypatch.setattr(hardware, "cpu_model_name", lambda: "AMD EPYC 9654 96-Core Processor")
    assert detect("cpu", {**profiles, "my-epyc": mine}).name == "my-epyc"


def test_detect_cpu_on_non_x86_without_profile_is_none(profiles, monkeypatch):
    monkeypatch.setattr(hardware, "cpu_model_name", lambda: "Apple M3")
    monkeypatch.setattr(hardware.platform, "machine", lambda: "arm64")
    assert detect("cpu", profiles) is None


def test_detect_auto_uses_the_gpu_name(profiles, monkeypatch):
    monkeypatch.setattr(hardware, "gpu_device_name", lambda index=0: "NVIDIA H100 80GB HBM3")
    assert detect("auto", profiles).name == "h100-sxm"
    assert detect("cuda:0", profiles).name == "h100-sxm"


def test_detect_unknown_gpu_is_none_not_the_cpu(profiles, monkeypatch):
    monkeypatch.setattr(hardware, "gpu_device_name", lambda index=0: "Tesla T4")
    assert detect("auto", profiles) is None


def test_detect_without_gpu_auto_gives_cpu_and_cuda_gives_none(profiles, monkeypatch):
    monkeypatch.setattr(hardware, "gpu_device_name", lambda index=0: None)
    monkeypatch.setattr(hardware.platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(hardware, "cpu_model_name", lambda: "Unknown")
    assert detect("auto", profiles).kind == "cpu"
    assert detect("cuda", profiles) is None


@pytest.mark.parametrize("bad", ["tpu", "cuda:x", "gpu0"])
def test_detect_rejects_unknown_device_strings(profiles, bad):
    with pytest.raises(ConfigError, match="bad device"):
        detect(bad, profiles)


def test_detect_does_not_initialise_cuda_in_the_calling_process():
    code = (
        "import torch\n"
        "from kernelsearch.hardware import detect\n"
        "detect('auto')\n"
        "print(torch.cuda.is_initialized())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"


# ---------------------------------------------------------------------------------------
# Roofline


@pytest.mark.parametrize(
    "dtype, key",
    [("fp32", "fp32"), ("float32", "fp32"), ("torch.bfloat16", "bf16"), ("half", "fp16")],
)
def test_dtype_spellings_are_canonicalised(dtype, key):
    assert canonical_dtype(dtype) == key


def test_torch_dtypes_are_accepted():
    torch = pytest.importorskip("torch")
    assert canonical_dtype(torch.float16) == "fp16"


def test_peak_flops_in_flop_per_second(h100):
    assert peak_flops(h100, "bf16") == pytest.approx(989.4e12)
    assert peak_flops(_profile(), "float32") == 1e12


def test_peak_flops_for_a_dtype_the_profile_lacks_names_the_fix(profiles):
    with pytest.raises(ConfigError, match="lists no fp8 peak.*\\[peak_tflops\\]"):
        peak_flops(profiles["a100-sxm-80gb"], "fp8")
    with pytest.raises(ConfigError, match="unknown dtype"):
        peak_flops(profiles["a100-sxm-80gb"], "complex64")


def test_roofline_ms_is_the_larger_of_compute_and_memory_time():
    toy = _profile()  # 1e12 FLOP/s, 1e11 B/s
    assert roofline_ms(toy, flops=1e12, bytes_moved=1e9, dtype="fp32") == pytest.approx(1000.0)
    assert roofline_ms(toy, flops=1e9, bytes_moved=1e11, dtype="fp32") == pytest.approx(1000.0)
    assert roofline_ms(toy, flops=1e12, bytes_moved=0, dtype="bf16") == pytest.approx(250.0)
    assert roofline_ms(toy, flops=0, bytes_moved=0, dtype="fp32") == 0.0


def test_roofline_rejects_negative_work():
    with pytest.raises(ValueError):
        roofline_ms(_profile(), flops=-1, bytes_moved=0, dtype="fp32")


def test_roofline_fractions_memory_bound():
    # 1e10 bytes at 100 GB/s = 100 ms; 1e9 FLOP at 1 TFLOP/s = 1 ms. Measured 200 ms.
    r = roofline_fractions(_profile(), flops=1e9, bytes_moved=1e10, dtype="fp32", measured_ms=200)
    assert r.bound == "memory"
    assert r.roofline_ms == pytest.approx(100.0)
    assert r.bandwidth_fraction == pytest.approx(0.5)
    assert r.flop_fraction == pytest.approx(1e9 / 0.2 / 1e12)
    assert r.achieved_gbs == pytest.approx(50.0)
    assert r.arithmetic_intensity == pytest.approx(0.1)
    assert r.ridge_intensity == pytest.approx(10.0)
    assert r.roofline_fraction == pytest.approx(0.5)
    assert not r.exceeds_roofline


def test_roofline_fractions_compute_bound_and_faster_than_possible():
    r = roofline_fractions(_profile(), flops=1e12, bytes_moved=1e6, dtype="fp32", measured_ms=500)
    assert r.bound == "compute"
    assert r.flop_fraction == pytest.approx(2.0)
    assert r.achieved_tflops == pytest.approx(2.0)
    assert r.exceeds_roofline


def test_roofline_fractions_zero_flops_is_memory_bound():
    r = roofline_fractions(_profile(), flops=0, bytes_moved=1e9, dtype="fp32", measured_ms=10)
    assert r.bound == "memory"
    assert r.flop_fraction == 0.0
    assert r.arithmetic_intensity == 0.0
    assert r.bandwidth_fraction == pytest.approx(1.0)


def test_roofline_fractions_zero_bytes_is_compute_bound_with_no_intensity():
    r = roofline_fractions(_profile(), flops=1e9, bytes_moved=0, dtype="fp32", measured_ms=2)
    assert r.bound == "compute"
    assert r.arithmetic_intensity is None
    assert r.bandwidth_fraction == 0.0
    assert r.flop_fraction == pytest.approx(0.5)


def test_roofline_fractions_zero_work_reports_zeros():
    r = roofline_fractions(_profile(), flops=0, bytes_moved=0, dtype="fp32", measured_ms=1)
    assert (r.bound, r.roofline_fraction, r.arithmetic_intensity) == ("memory", 0.0, None)


def test_roofline_fractions_needs_a_positive_time():
    with pytest.raises(ValueError, match="measured_ms"):
        roofline_fractions(_profile(), flops=1, bytes_moved=1, dtype="fp32", measured_ms=0)


def test_roofline_round_trips_through_dict():
    r = roofline_fractions(_profile(), flops=1e9, bytes_moved=1e9, dtype="fp32", measured_ms=20)
    assert Roofline.from_dict(r.to_dict()) == r
    assert math.isclose(r.roofline_fraction, 10 / 20)


# ---------------------------------------------------------------------------------------
# Occupancy (hand-computed for H100: 64 warps, 32 blocks, 64K regs, 228 KB smem per SM)


def test_occupancy_full_at_256_threads_32_registers(h100):
    occ = occupancy(h100, threads_per_block=256, registers_per_thread=32, shared_mem_per_block=0)
    # threads: 64 warps / 8 = 8 blocks; registers: 1024/warp -> 64 warps -> 8 blocks (tie).
    assert occ.blocks_per_sm == 8
    assert occ.active_warps == 64
    assert occ.occupancy == 1.0
    assert occ.limiting_factor == "threads"
    assert occ.blocks_by_factor["registers"] == 8


def test_occupancy_quarter_at_128_registers(h100):
    occ = occupancy(h100, threads_per_block=256, registers_per_thread=128, shared_mem_per_block=0)
    # 128 * 32 = 4096 regs/warp -> 16 warps -> 2 blocks of 8 warps.
    assert (occ.blocks_per_sm, occ.occupancy, occ.limiting_factor) == (2, 0.25, "registers")


def test_register_count_rounds_up_to_the_allocation_unit(h100):
    # 33 regs * 32 = 1056 -> 1280 per warp; 65536 // 1280 = 51 -> 48 (granularity 4) -> 6 blocks.
    occ = occupancy(h100, threads_per_block=256, registers_per_thread=33, shared_mem_per_block=0)
    assert (occ.blocks_per_sm, occ.active_warps, occ.limiting_factor) == (6, 48, "registers")


def test_best_block_occupancy_is_the_ceiling_over_block_sizes(h100):
    # 40 regs -> 1280/warp -> 48 warps fit. 32-thread blocks stop at 32 blocks (32 warps);
    # 64-thread blocks reach 24 blocks = 48 warps (75%), the smallest block that does.
    threads, occ = best_block_occupancy(h100, registers_per_thread=40, shared_mem_per_block=0)
    assert (threads, occ.active_warps, occ.occupancy, occ.limiting_factor) == (
        64,
        48,
        0.75,
        "registers",
    )
    # 128 regs: 16 warps whatever the block size.
    assert best_block_occupancy(h100, 128, 0)[1].occupancy == 0.25


def test_profile_for_arch_finds_a_part_of_that_architecture(profiles):
    assert profile_for_arch("sm_90a", profiles).name == "h100-sxm"
    assert profile_for_arch("sm_90", profiles).name == "h100-sxm"
    assert profile_for_arch("sm_80", profiles).name == "a100-sxm-80gb"
    assert profile_for_arch("sm_75", profiles) is None


def test_occupancy_limited_by_shared_memory(h100):
    # 48 KB + 1 KB reserved = 50176 B per block; 233472 // 50176 = 4 blocks = 32 warps.
    occ = occupancy(h100, 256, 32, 48 * 1024)
    assert (occ.blocks_per_sm, occ.occupancy, occ.limiting_factor) == (4, 0.5, "shared_memory")


def test_reserved_shared_memory_costs_a_block(h100):
    # 57 KB alone would fit 4 blocks (233472 / 58368 = 4.0); with the 1 KB reserve only 3.
    occ = occupancy(h100, 128, 32, 57 * 1024)
    assert occ.blocks_per_sm == 3
    assert occ.limiting_factor == "shared_memory"


def test_occupancy_limited_by_blocks_per_sm(h100):
    # 32 threads = 1 warp per block; 32 blocks max -> 32 of 64 warps.
    occ = occupancy(h100, 32, 16, 0)
    assert (occ.blocks_per_sm, occ.occupancy, occ.limiting_factor) == (32, 0.5, "blocks")


def test_partial_warp_counts_as_a_whole_warp(h100):
    occ = occupancy(h100, 48, 0, 0)  # 2 warps per block
    assert occ.blocks_per_sm == 32 and occ.active_warps == 64


def test_ada_has_fewer_warps_per_sm(profiles):
    occ = occupancy(profiles["l40s"], 256, 32, 0)  # 48 warps / 8 = 6 blocks
    assert (occ.blocks_per_sm, occ.max_warps, occ.occupancy) == (6, 48, 1.0)


@pytest.mark.parametrize(
    "threads, regs, smem, factor",
    [(2048, 32, 0, "threads"), (256, 256, 0, "registers"), (256, 32, 228 * 1024, "shared_memory")],
)
def test_unlaunchable_configurations_have_zero_blocks(h100, threads, regs, smem, factor):
    occ = occupancy(h100, threads, regs, smem)
    assert occ.blocks_per_sm == 0 and occ.occupancy == 0.0
    assert occ.limiting_factor == factor


def test_occupancy_rejects_nonsense_arguments(h100):
    with pytest.raises(ValueError):
        occupancy(h100, 0, 32, 0)


def test_occupancy_refuses_profiles_without_sm_limits(profiles):
    with pytest.raises(ConfigError, match="lacks \\[limits\\].*max_threads_per_sm"):
        occupancy(profiles["mi300x"], 256, 32, 0)
    with pytest.raises(ConfigError):
        occupancy(profiles["cpu-x86-generic"], 256, 32, 0)


def test_occupancy_round_trips_through_dict(h100):
    occ = occupancy(h100, 256, 64, 0)
    assert Occupancy.from_dict(occ.to_dict()) == occ
