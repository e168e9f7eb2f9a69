"""Process isolation primitives for sandbox workers (Linux).

Used by the fork server: scrubbed environments, resource limits, a private network namespace,
dropping root, and making the orchestrator non-dumpable so its /proc/<pid>/environ is closed.
"""

from __future__ import annotations

import ctypes
import logging
import os
import re
import resource

log = logging.getLogger(__name__)

# Environment variables never passed to a kernel: API keys, tokens, cloud credentials.
_SECRET_PATTERNS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r".*_API_KEY$",
        r".*_KEY$",
        r".*_TOKEN$",
        r".*SECRET.*",
        r".*PASSWORD.*",
        r".*CREDENTIAL.*",
        r"^LITELLM_.*",
        r"^AWS_.*",
        r"^AZURE_.*",
        r"^GOOGLE_.*",
        r"^GCLOUD_.*",
        r"^GCP_.*",
        r"^OPENAI_.*",
        r"^ANTHROPIC_.*",
        r"^HF_.*",
        r"^HUGGING.*",
        r"^WANDB_.*",
        r"^GITHUB_.*",
        r"^GH_.*",
        r"^SSH_AUTH_SOCK$",
        r"^KUBECONFIG$",
        r"^DOCKER_.*",
        r"^NETRC$",
    )
]
# Variables a worker keeps from the orchestrator (everything else is dropped).
_KEEP = (
    "PATH",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TERM",
    "CUDA_HOME",
    "CUDA_PATH",
    "CC",
    "CXX",
    "LD_LIBRARY_PATH",
    "PYTHONPATH",
    "VIRTUAL_ENV",
    "CONDA_PREFIX",
    "OMP_NUM_THREADS",
    "OPENBLAS_CORETYPE",
    "OPENBLAS_L2_SIZE",
    "NVCC_APPEND_FLAGS",
    "TRITON_PTXAS_PATH",
)

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
CLONE_NEWNET = 0x40000000
CLONE_NEWNS = 0x00020000
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RDONLY = 1

# Credential files and folders under a home directory, hidden from workers.
CREDENTIAL_PATHS = (
    ".aws",
    ".azure",
    ".config/gcloud",
    ".config/gh",
    ".config/hub",
    ".docker",
    ".kube",
    ".ssh",
    ".gnupg",
    ".netrc",
    ".git-credentials",
    ".pypirc",
    ".npmrc",
    ".cache/huggingface",
    ".huggingface",
    ".config/litellm",
    ".litellm",
    ".anthropic",
    ".openai",
    ".env",
    ".bash_history",
    ".zsh_history",
    ".python_history",
    ".config/kernelsearch/credentials",
)
NOBODY_UID = 65534

_libc = ctypes.CDLL(None, use_errno=True)


def is_secret(name: str) -> bool:
    return any(p.match(name) for p in _SECRET_PATTERNS)


def scrubbed_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """An allow-listed copy of the environment with every credential-looking variable removed."""
    base = dict(os.environ if base is None else base)
    return {k: v for k, v in base.items() if k in _KEEP and not is_secret(k)}


def make_non_dumpable() -> None:
    """Close /proc/<self>/environ and ptrace to processes without CAP_SYS_PTRACE."""
    if _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        log.warning("prctl(PR_SET_DUMPABLE) failed: errno %d", ctypes.get_errno())


def die_with_parent(sig: int) -> None:
    _libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)


def no_new_privs() -> None:
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def private_network() -> bool:
    """Move this process into a fresh network namespace (loopback only, down). False if refused."""
    return _libc.unshare(CLONE_NEWNET) == 0


def credential_paths(home: str) -> list[str]:
    """Existing credential locations under `home` (what `hide_paths` should cover)."""
    return [p for p in (os.path.join(home, c) for c in CREDENTIAL_PATHS) if os.path.lexists(p)]


def hide_paths(paths: list[str], empty_dir: str) -> bool:
    """In a private mount namespace, cover each path with an empty folder or /dev/null.

    Needs CAP_SYS_ADMIN (root before dropping privileges); False where refused.
    """
    if not paths:
        return True
    if _libc.unshare(CLONE_NEWNS) != 0:
        return False
    if _libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return False
    ok = True
    for path in paths:
        source = empty_dir if os.path.isdir(path) else os.devnull
        if _libc.mount(source.encode(), path.encode(), None, MS_BIND, None) != 0:
            ok = False
    return ok


def limit_address_space(extra_mb: int) -> None:
    """Cap virtual memory at the current size plus `extra_mb` (CPU workers; breaks CUDA)."""
    current = _vm_size_bytes()
    limit = current + extra_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def disable_core_dumps() -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def others_can_use(paths: list[str]) -> bool:
    """True when an unprivileged user could traverse to and read every path (mode bits only)."""
    for path in paths:
        parts = os.path.abspath(path).split(os.sep)
        for i in range(2, len(parts) + 1):
            try:
                mode = os.stat(os.sep.join(parts[:i]) or os.sep).st_mode
            except OSError:
                return False
            if not mode & 0o001:
                return False
    return True


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def drop_capabilities() -> bool:
    """Keep the uid but lose every capability (no reading non-dumpable processes' memory)."""
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    return _libc.capset(ctypes.byref(header), data) == 0


def drop_root(paths_to_own: list[str], needed: list[str]) -> str:
    """Leave root: become `nobody` when everything needed is reachable, else drop capabilities.

    Returns what was done: "nobody", "capabilities" or "none" (not root).
    """
    if os.geteuid() != 0:
        return "none"
    if not others_can_use(needed):
        return "capabilities" if drop_capabilities() else "none"
    for p in paths_to_own:
        for root, dirs, files in os.walk(p):
            os.chown(root, NOBODY_UID, NOBODY_UID)
            for f in files:
                os.chown(os.path.join(root, f), NOBODY_UID, NOBODY_UID)
            for d in dirs:
                os.chown(os.path.join(root, d), NOBODY_UID, NOBODY_UID)
    os.setgroups([])
    os.setresgid(NOBODY_UID, NOBODY_UID, NOBODY_UID)
    os.setresuid(NOBODY_UID, NOBODY_UID, NOBODY_UID)
    return "nobody"


def _vm_size_bytes() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def rss_bytes_of_group(pgid: int) -> int:
    """Resident memory of every process in a process group (GPU workers' memory watchdog)."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.getpgid(int(entry)) != pgid:
                continue
            with open(f"/proc/{entry}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError):
            continue
    return total
