"""Static guards: checks on the candidate's source before anything runs.

A registry of named checks (`REGISTRY`), each with a severity and the hack it catches, each
returning `Flag`s; severity `error` rejects the candidate. These are cheap early filters: a
determined candidate can hide from any source check, so the runtime trace (`trace.py`,
`harness/checks.py`) is the authority. The checks therefore lean generous: when the source
*could* reach the kernel, `kernel_not_called` stays quiet and leaves it to the runtime count.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from kernelsearch.harness.guards.policy import STATIC_ALLOWED_TORCH, Policy
from kernelsearch.result import Flag, Severity

# Checks whose failure means "not a usable candidate" (stage static_failed) rather than
# "a guard rejected it" (stage rejected).
STRUCTURAL = {"syntax", "model_new", "signature"}

# torch.X calls that are not compute (besides policy.STATIC_ALLOWED_TORCH).
TORCH_UTILITIES = frozenset(
    {
        "no_grad",
        "inference_mode",
        "enable_grad",
        "set_grad_enabled",
        "device",
        "dtype",
        "finfo",
        "iinfo",
        "is_tensor",
        "is_floating_point",
        "numel",
        "get_num_threads",
        "get_default_dtype",
        "is_grad_enabled",
        "promote_types",
        "result_type",
        "broadcast_shapes",
        "Generator",
        "manual_seed",
    }
)
TORCH_FUNCTIONAL_NAMESPACES = ("nn.functional", "special", "linalg", "fft", "ops.aten")
# Tensor methods that are PyTorch compute (method calls on anything but an extension/kernel).
TENSOR_COMPUTE_METHODS = frozenset(
    """add sub mul div matmul mm bmm addmm baddbmm sum mean max min amax amin argmax argmin
    softmax log_softmax exp log log1p sqrt rsqrt relu sigmoid tanh pow norm var std cumsum
    cumprod prod abs neg clamp clamp_ relu_ add_ mul_ div_ sub_ exp_ sort topk logsumexp
    masked_fill where gather scatter index_select layer_norm gelu silu erf conv2d linear
    half bfloat16 einsum tril triu square reciprocal""".split()
)
NN_NON_COMPUTE = frozenset(
    {
        "Parameter",
        "ParameterList",
        "ParameterDict",
        "ModuleList",
        "ModuleDict",
        "Identity",
        "Flatten",
        "Unflatten",
        "Sequential",
    }
)
# Global torch state a candidate must not change (precision and threading toggles).
TORCH_GLOBAL_STATE = re.compile(r"^(set_(?!grad_enabled)\w+|use_deterministic_algorithms)$")

CONCURRENCY_MODULES = frozenset(
    {
        "threading",
        "_thread",
        "multiprocessing",
        "concurrent",
        "asyncio",
        "subprocess",
        "signal",
        "sched",
        "torch.multiprocessing",
    }
)
CONCURRENCY_OS_CALLS = frozenset(
    {
        "fork",
        "forkpty",
        "system",
        "popen",
        "spawnl",
        "spawnv",
        "spawnlp",
        "spawnvp",
        "execv",
        "execve",
        "execl",
        "execlp",
        "execvp",
        "kill",
        "killpg",
        "posix_spawn",
    }
)
CONCURRENCY_CPP = re.compile(
    r"std::(j?thread|async)\b|pthread_create|#include\s*<(thread|future)>|cudaStreamCreate"
    r"|getStreamFromPool|hipStreamCreate"
)
CUDA_SIDE_STREAMS = frozenset({"Stream", "stream", "set_stream", "ExternalStream"})
INTROSPECTION_MODULES = frozenset(
    {"gc", "inspect", "ctypes", "kernelsearch", "importlib", "builtins", "weakref", "dis"}
)
INTROSPECTION_BUILTINS = frozenset({"exec", "eval", "compile", "__import__", "globals", "vars"})
INTROSPECTION_ATTRS = frozenset(
    {
        "_getframe",
        "currentframe",
        "get_objects",
        "get_referrers",
        "modules",
        "f_back",
        "f_locals",
        "f_globals",
    }
)
FILE_NET_MODULES = frozenset(
    {
        "socket",
        "urllib",
        "http",
        "requests",
        "ftplib",
        "smtplib",
        "shutil",
        "tempfile",
        "pathlib",
        "httpx",
        "aiohttp",
        "io",
    }
)
FILE_NET_CALLS = frozenset(
    {
        "open",
        "read_text",
        "write_text",
        "read_bytes",
        "write_bytes",
        "unlink",
        "remove",
        "rename",
        "rmdir",
        "removedirs",
        "listdir",
        "scandir",
        "walk",
        "save",
        "load",
        "urlopen",
        "makedirs",
    }
)
FILE_NET_CPP = re.compile(
    r"\bfopen\s*\(|std::[io]?fstream|#include\s*<fstream>|\bsocket\s*\(|\bpopen\s*\("
    r"|\bsystem\s*\(|\bcurl_"
)


@dataclass(frozen=True)
class StaticGuard:
    """One registered check: name, default severity, what it catches, the function."""

    name: str
    severity: Severity
    catches: str
    fn: Callable[[Source], list[Flag]]


@dataclass
class Source:
    """The parsed candidate and what the checks share about it."""

    tree: ast.Module
    text: str
    backend: str
    policy: Policy
    task_tree: ast.Module | None = None
    _cache: dict = field(default_factory=dict)

    # ---- structure --------------------------------------------------------------------
    @cached_property
    def classes(self) -> dict[str, ast.ClassDef]:
        return {n.name: n for n in self.tree.body if isinstance(n, ast.ClassDef)}

    @cached_property
    def functions(self) -> dict[str, ast.FunctionDef]:
        return {n.name: n for n in self.tree.body if isinstance(n, ast.FunctionDef)}

    @property
    def model_new(self) -> ast.ClassDef | None:
        return self.classes.get("ModelNew")

    @cached_property
    def imports(self) -> dict[str, str]:
        """Local name -> dotted module (or module.attr for from-imports)."""
        out: dict[str, str] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    out[a.asname or a.name.split(".")[0]] = (
                        a.name if a.asname else a.name.split(".")[0]
                    )
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    out[a.asname or a.name] = f"{node.module}.{a.name}"
        return out

    def dotted(self, node: ast.AST) -> str | None:
        """`F.relu` -> 'torch.nn.functional.relu' (import aliases resolved); None if not a chain."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        root = self.imports.get(node.id, node.id)
        return ".".join([root, *reversed(parts)])

    # ---- kernels ----------------------------------------------------------------------
    @cached_property
    def jit_kernels(self) -> set[str]:
        names = set()
        for fn in ast.walk(self.tree):
            if isinstance(fn, ast.FunctionDef):
                for d in fn.decorator_list:
                    target = d.func if isinstance(d, ast.Call) else d
                    name = self.dotted(target) or ""
                    if name.startswith("triton.") and name.split(".")[-1] in {
                        "jit",
                        "autotune",
                        "heuristics",
                    }:
                        names.add(fn.name)
        return names

    def _is_load_inline(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and (self.dotted(node.func) or "").endswith("load_inline")

    @cached_property
    def load_inline_calls(self) -> list[ast.Call]:
        return [n for n in ast.walk(self.tree) if self._is_load_inline(n)]

    @cached_property
    def extension_refs(self) -> tuple[set[str], set[str]]:
        """(names, self-attributes) bound to load_inline results, their attributes, factories."""
        names: set[str] = set()
        attrs: set[str] = set()
        for fn in ast.walk(self.tree):
            if isinstance(fn, ast.FunctionDef) and any(
                self._is_load_inline(n) for n in ast.walk(fn)
            ):
                names.add(fn.name)  # a (lazy) factory of the extension
        changed = True
        while changed:
            changed = False
            for node in ast.walk(self.tree):
                if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
                    continue
                if not (
                    self._is_load_inline(node.value) or self._mentions(node.value, names, attrs)
                ):
                    continue
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for leaf in _target_leaves(t):
                        if isinstance(leaf, ast.Name) and leaf.id not in names:
                            names.add(leaf.id)
                            changed = True
                        elif _is_self_attr(leaf) and leaf.attr not in attrs:
                            attrs.add(leaf.attr)
                            changed = True
        return names, attrs

    def _mentions(self, node: ast.AST, names: set[str], attrs: set[str]) -> bool:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id in names:
                return True
            if _is_self_attr(n) and n.attr in attrs:
                return True
        return False

    # ---- what forward reaches ---------------------------------------------------------
    @cached_property
    def reachable(self) -> list[ast.FunctionDef]:
        """ModelNew.forward and the module's functions/methods it (transitively) calls."""
        if self.model_new is None:
            return []
        methods = _methods(self.model_new)
        start = methods.get("forward")
        if start is None:
            return []
        module_attrs = self._module_instance_attrs(self.model_new)
        seen: dict[int, ast.FunctionDef] = {}
        todo = [start]
        while todo:
            fn = todo.pop()
            if id(fn) in seen or fn.name in self.jit_kernels:
                continue
            seen[id(fn)] = fn
            for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
                todo.extend(self._callees(call, methods, module_attrs))
        return list(seen.values())

    def _module_instance_attrs(self, cls: ast.ClassDef) -> dict[str, str]:
        """self.attr -> class name, for attributes assigned an instance of a local class."""
        out: dict[str, str] = {}
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                callee = node.value.func
                if isinstance(callee, ast.Name) and callee.id in self.classes:
                    for t in node.targets:
                        if _is_self_attr(t):
                            out[t.attr] = callee.id
        return out

    def _callees(
        self, call: ast.Call, methods: dict[str, ast.FunctionDef], module_attrs: dict[str, str]
    ) -> Iterator[ast.FunctionDef]:
        f = call.func
        if isinstance(f, ast.Name):
            if f.id in self.functions:
                yield self.functions[f.id]
            elif f.id in self.classes:
                yield from _methods(self.classes[f.id]).values()
        elif isinstance(f, ast.Attribute):
            if isinstance(f.value, ast.Name) and f.value.id == "self" and f.attr in methods:
                yield methods[f.attr]
            elif _is_self_attr(f) and f.attr in module_attrs:
                cls = _methods(self.classes[module_attrs[f.attr]])
                yield from (cls[m] for m in ("forward", "__call__") if m in cls)
            elif isinstance(f.value, ast.Name) and f.value.id in self.classes:
                cls = _methods(self.classes[f.value.id])
                if f.attr == "apply" and "forward" in cls:  # autograd.Function
                    yield cls["forward"]
                if f.attr in cls:
                    yield cls[f.attr]

    def reachable_nodes(self) -> Iterator[ast.AST]:
        for fn in self.reachable:
            yield from ast.walk(fn)

    @cached_property
    def nn_module_attrs(self) -> dict[str, str]:
        """self.attr -> 'Linear' for attributes of ModelNew assigned a torch.nn module."""
        out: dict[str, str] = {}
        if self.model_new is None:
            return out
        for node in ast.walk(self.model_new):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                name = self.dotted(node.value.func) or ""
                if name.startswith("torch.nn.") and name.count(".") == 2:
                    for t in node.targets:
                        if _is_self_attr(t):
                            out[t.attr] = name.split(".")[-1]
        return out


def _methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}


def _is_self_attr(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _target_leaves(t: ast.AST) -> Iterator[ast.AST]:
    if isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            yield from _target_leaves(e)
    else:
        yield t


def _line(node: ast.AST) -> str:
    return f"line {getattr(node, 'lineno', '?')}"


# ---------------------------------------------------------------------------------------
# Registry

REGISTRY: dict[str, StaticGuard] = {}


def register(name: str, severity: Severity, catches: str) -> Callable:
    def deco(fn: Callable[[Source], list[Flag]]) -> Callable[[Source], list[Flag]]:
        REGISTRY[name] = StaticGuard(name, severity, catches, fn)
        return fn

    return deco


def _flag(name: str, reason: str, severity: Severity | None = None) -> Flag:
    return Flag(name, severity or REGISTRY[name].severity, reason)


def _findings(name: str, why: list[str], advice: str) -> list[Flag]:
    """One flag listing every distinct finding of a check, then what to do; none if none."""
    if not why:
        return []
    return [_flag(name, "; ".join(dict.fromkeys(why)) + advice)]


@register("model_new", Severity.ERROR, "no ModelNew class or no forward()")
def _model_new(src: Source) -> list[Flag]:
    cls = src.model_new
    if cls is None:
        return [_flag("model_new", "the source defines no top-level class ModelNew")]
    if "forward" not in _methods(cls):
        return [_flag("model_new", "class ModelNew defines no forward()")]
    return []


def _positional_range(fn: ast.FunctionDef) -> tuple[int, float]:
    """(required, maximum) positional arguments, without self."""
    args = [*fn.args.posonlyargs, *fn.args.args][1:]
    required = len(args) - len(fn.args.defaults)
    return max(0, required), float("inf") if fn.args.vararg else float(len(args))


@register(
    "signature", Severity.ERROR, "ModelNew's constructor/forward cannot take Model's arguments"
)
def _signature(src: Source) -> list[Flag]:
    if src.task_tree is None or src.model_new is None:
        return []
    model = next(
        (n for n in src.task_tree.body if isinstance(n, ast.ClassDef) and n.name == "Model"), None
    )
    if model is None:
        return []
    flags = []
    for method in ("__init__", "forward"):
        ref, new = _methods(model).get(method), _methods(src.model_new).get(method)
        if ref is None or new is None or ref.args.vararg:
            continue
        given = len([*ref.args.posonlyargs, *ref.args.args]) - 1
        low, high = _positional_range(new)
        if not low <= given <= high:
            flags.append(
                _flag(
                    "signature",
                    f"ModelNew.{method} takes {low}"
                    + ("" if high == low else f"-{high:g}")
                    + f" positional argument(s) but Model.{method} is called with {given}; "
                    "keep Model's signature",
                )
            )
    return flags


@register("kernel_missing", Severity.ERROR, "no kernel of the backend's language is defined")
def _kernel_missing(src: Source) -> list[Flag]:
    if src.backend == "triton":
        if not src.jit_kernels:
            return [_flag("kernel_missing", "no @triton.jit kernel is defined")]
        return []
    if not src.load_inline_calls:
        return [_flag("kernel_missing", "no load_inline(...) extension is built")]
    if src.backend == "cuda":
        if "__global__" not in src.text:
            return [_flag("kernel_missing", "no __global__ CUDA kernel in the sources")]
        if "<<<" not in src.text and "cudaLaunchKernel" not in src.text:
            return [_flag("kernel_missing", "the __global__ kernel is never launched (<<<...>>>)")]
    return []


@register("kernel_not_called", Severity.ERROR, "a kernel is defined but forward never calls it")
def _kernel_not_called(src: Source) -> list[Flag]:
    if src.model_new is None or not src.reachable:
        return []
    if src.backend == "triton":
        if not src.jit_kernels:
            return []
        for node in src.reachable_nodes():
            if isinstance(node, ast.Name) and node.id in src.jit_kernels:
                return []
        return [_flag("kernel_not_called", "forward never launches a @triton.jit kernel")]
    names, attrs = src.extension_refs
    if not names and not attrs:
        return []  # kernel_missing speaks
    for node in src.reachable_nodes():
        if isinstance(node, ast.Name) and node.id in names:
            return []
        if _is_self_attr(node) and node.attr in attrs:
            return []
        if src._is_load_inline(node):
            return []
    return [_flag("kernel_not_called", "forward never calls a load_inline extension function")]


@register("reference_model", Severity.ERROR, "uses the reference Model or the task module")
def _reference_model(src: Source) -> list[Flag]:
    flags = []
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Name) and node.id == "Model" and isinstance(node.ctx, ast.Load):
            flags.append(_flag("reference_model", f"{_line(node)}: uses the reference Model"))
            break
    if re.search(r"\bks_task\b", src.text):
        flags.append(_flag("reference_model", "reaches into the harness's task module ks_task"))
    return flags


@register("fallback_try", Severity.ERROR, "try/except around the kernel (fallback to PyTorch)")
def _fallback_try(src: Source) -> list[Flag]:
    for node in src.reachable_nodes():
        if isinstance(node, ast.Try) and node.handlers:
            return [
                _flag(
                    "fallback_try",
                    f"{_line(node)}: try/except in code forward runs; a failing kernel must "
                    "fail, not fall back. Remove the try/except",
                )
            ]
    return []


def _torch_compute_name(src: Source, call: ast.Call) -> str | None:
    name = src.dotted(call.func)
    if name and name.startswith("torch."):
        rest = name[len("torch.") :]
        if rest in {"compile"} or rest.startswith("jit."):
            return name
        for ns in TORCH_FUNCTIONAL_NAMESPACES:
            if rest.startswith(ns + "."):
                return name
        if rest.startswith("nn.") and rest.count(".") == 1:
            return None if rest[3:] in NN_NON_COMPUTE else name + " (an nn module)"
        if "." not in rest and rest not in STATIC_ALLOWED_TORCH and rest not in TORCH_UTILITIES:
            return None if TORCH_GLOBAL_STATE.match(rest) else name
        return None
    f = call.func
    if _is_self_attr(f) and f.attr in src.nn_module_attrs:
        kind = src.nn_module_attrs[f.attr]
        return None if kind in NN_NON_COMPUTE else f"self.{f.attr} (nn.{kind})"
    if isinstance(f, ast.Attribute) and f.attr in TENSOR_COMPUTE_METHODS:
        names, attrs = src.extension_refs
        receiver = f.value
        if isinstance(receiver, ast.Name) and (receiver.id in names or receiver.id in src.imports):
            return None
        if _is_self_attr(receiver) and receiver.attr in attrs:
            return None
        if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name):
            if receiver.func.id in names:  # a lazy extension factory: _get_ext().add(...)
                return None
        return f"tensor.{f.attr}()"
    return None


@register("torch_compute", Severity.ERROR, "PyTorch compute calls the policy forbids in forward")
def _torch_compute(src: Source) -> list[Flag]:
    found: dict[str, ast.AST] = {}
    for node in src.reachable_nodes():
        if isinstance(node, ast.Call):
            name = _torch_compute_name(src, node)
            if name and name not in found:
                found[name] = node
    if not found:
        return []
    listed = ", ".join(f"{n} ({_line(node)})" for n, node in found.items())
    if src.policy.allow_torch_ops:
        return [
            _flag(
                "torch_compute",
                f"forward calls PyTorch compute: {listed} (allowed by --allow-torch-ops; recorded)",
                Severity.WARNING,
            )
        ]
    return [
        _flag(
            "torch_compute",
            f"forward calls PyTorch compute: {listed}. The strict policy allows only "
            "allocation, views and same-dtype copies besides your kernels; do this work in "
            "the kernel (or opt in with --allow-torch-ops for fusion tasks)",
        )
    ]


def _imported_modules(src: Source) -> Iterator[tuple[str, ast.AST]]:
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module, node


def _module_hit(module: str, banned: frozenset[str]) -> bool:
    parts = module.split(".")
    return any(".".join(parts[: i + 1]) in banned for i in range(len(parts)))


@register("concurrency", Severity.ERROR, "threads, processes, async, signals or side streams")
def _concurrency(src: Source) -> list[Flag]:
    why = []
    for module, node in _imported_modules(src):
        if _module_hit(module, CONCURRENCY_MODULES):
            why.append(f"imports {module} ({_line(node)})")
    for node in ast.walk(src.tree):
        if isinstance(node, (ast.AsyncFunctionDef, ast.Await)):
            why.append(f"async code ({_line(node)})")
        elif isinstance(node, ast.Call):
            name = src.dotted(node.func) or ""
            if name.startswith("os.") and name[3:] in CONCURRENCY_OS_CALLS:
                why.append(f"calls {name} ({_line(node)})")
            if name.startswith("torch.cuda.") and name.split(".")[-1] in CUDA_SIDE_STREAMS:
                why.append(f"uses a side stream: {name} ({_line(node)})")
    m = CONCURRENCY_CPP.search(src.text)
    if m:
        why.append(f"C++ source uses {m.group(0)}")
    return _findings(
        "concurrency",
        why,
        ": work must finish inside forward on the current stream (the timer cannot see "
        "threads, processes or side streams); OpenMP parallel loops are fine",
    )


@register("monkey_patch", Severity.ERROR, "patching torch/time/CUDA events or global torch state")
def _monkey_patch(src: Source) -> list[Flag]:
    why = []
    for node in ast.walk(src.tree):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = [leaf for t in node.targets for leaf in _target_leaves(t)]
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            if isinstance(t, (ast.Attribute, ast.Subscript)):
                base = t.value if isinstance(t, ast.Subscript) else t
                root = base
                while isinstance(root, (ast.Attribute, ast.Subscript)):
                    root = root.value
                if (
                    isinstance(root, ast.Name)
                    and root.id in src.imports
                    and src.dotted(base) != "os.environ"
                ):
                    why.append(f"assigns {src.dotted(base) or root.id} ({_line(node)})")
        if isinstance(node, ast.Call):
            name = src.dotted(node.func) or ""
            if name in {"setattr", "delattr"} and node.args:
                root = node.args[0]
                while isinstance(root, ast.Attribute):
                    root = root.value
                if isinstance(root, ast.Name) and root.id in src.imports:
                    why.append(f"{name} on {src.dotted(node.args[0])} ({_line(node)})")
            if name.startswith("torch.") and "." not in name[6:]:
                if TORCH_GLOBAL_STATE.match(name[6:]):
                    why.append(f"calls {name} ({_line(node)})")
            if name.startswith("torch._C."):
                why.append(f"calls {name} ({_line(node)})")
    return _findings(
        "monkey_patch",
        why,
        ": a kernel may not patch modules, timers, CUDA events/synchronize or change "
        "global torch settings (precision, threads)",
    )


@register("introspection", Severity.ERROR, "frame/heap introspection, exec, or harness imports")
def _introspection(src: Source) -> list[Flag]:
    why = []
    for module, node in _imported_modules(src):
        if _module_hit(module, INTROSPECTION_MODULES):
            why.append(f"imports {module} ({_line(node)})")
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in INTROSPECTION_BUILTINS:
                why.append(f"calls {node.func.id}() ({_line(node)})")
        elif isinstance(node, ast.Attribute) and node.attr in INTROSPECTION_ATTRS:
            why.append(f"uses .{node.attr} ({_line(node)})")
        elif isinstance(node, ast.Name) and node.id == "__builtins__":
            why.append(f"touches __builtins__ ({_line(node)})")
    return _findings(
        "introspection",
        why,
        ": kernels may not inspect frames or the heap, exec code, or reach the harness",
    )


@register("file_network", Severity.ERROR, "file or network access")
def _file_network(src: Source) -> list[Flag]:
    why = []
    for module, node in _imported_modules(src):
        if _module_hit(module, FILE_NET_MODULES):
            why.append(f"imports {module} ({_line(node)})")
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id == "open":
                why.append(f"calls open() ({_line(node)})")
            elif isinstance(f, ast.Attribute) and f.attr in FILE_NET_CALLS:
                name = src.dotted(f) or ""
                root = name.split(".")[0]
                if root in {"os", "torch", "numpy", "pickle", "json", "io", "shutil"} or (
                    f.attr in {"read_text", "write_text", "read_bytes", "write_bytes", "urlopen"}
                ):
                    why.append(f"calls {name or f.attr} ({_line(node)})")
    m = FILE_NET_CPP.search(src.text)
    if m:
        why.append(f"C++ source uses {m.group(0).strip()}")
    return _findings(
        "file_network",
        why,
        ": kernels may not read or write files or the network",
    )


# ---------------------------------------------------------------------------------------
# Entry points


def check_source(
    source: str,
    backend: str,
    allow_torch_ops: bool = False,
    task_source: str | None = None,
) -> list[Flag]:
    """Run every registered static check; a syntax error short-circuits the rest."""
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return [Flag("syntax", Severity.ERROR, f"line {e.lineno}: {e.msg}")]
    task_tree = None
    if task_source is not None:
        try:
            task_tree = ast.parse(task_source)
        except SyntaxError:
            task_tree = None
    src = Source(tree, source, backend, Policy(allow_torch_ops), task_tree)
    flags: list[Flag] = []
    for guard in REGISTRY.values():
        flags.extend(guard.fn(src))
    return flags


def first_error(flags: list[Flag]) -> Flag | None:
    return next((f for f in flags if f.severity is Severity.ERROR), None)


def describe() -> list[tuple[str, str, str]]:
    """(name, default severity, what it catches) for every static guard, for --help and docs."""
    return [(g.name, g.severity.value, g.catches) for g in REGISTRY.values()]
