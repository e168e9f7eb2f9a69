"""The smoke batch: six tiny tasks, each paired with a known-good CPU kernel.

These tests only parse files; compiling the kernels is the harness tests' job.
"""

import ast
from pathlib import Path

from kernelsearch.tasks import load_batch

SMOKE_DIR = Path(__file__).resolve().parent.parent / "benchmarks" / "smoke"
KERNEL_DIR = SMOKE_DIR / "kernels"
EXPECTED_ORDER = [
    "1_add_relu",
    "2_row_softmax",
    "3_row_sum",
    "4_matmul",
    "5_layernorm",
    "6_linear_gelu",
]


def _kernel_tree(task_name: str) -> ast.Module:
    return ast.parse((KERNEL_DIR / f"{task_name}.py").read_text())


def _method_args(tree: ast.Module, class_name: str, method: str) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == method:
                    return [a.arg for a in item.args.args]
    raise AssertionError(f"{class_name}.{method} not found")


def test_smoke_batch_loads_in_numeric_order():
    tasks = load_batch(SMOKE_DIR)
    assert [t.name for t in tasks] == EXPECTED_ORDER


def test_smoke_batch_does_not_pick_up_kernel_files_as_tasks():
    names = {t.name for t in load_batch(SMOKE_DIR)}
    assert all(t.path.parent == SMOKE_DIR for t in load_batch(SMOKE_DIR))
    assert len(names) == len(EXPECTED_ORDER)


def test_every_smoke_task_has_a_kernel_file_and_no_stray_kernels():
    kernel_names = sorted(p.stem for p in KERNEL_DIR.glob("*.py"))
    assert kernel_names == sorted(EXPECTED_ORDER)


def test_every_smoke_kernel_defines_model_new_with_the_task_signatures():
    for task in load_batch(SMOKE_DIR):
        task_tree = ast.parse(task.source)
        kernel_tree = _kernel_tree(task.name)
        for method in ("__init__", "forward"):
            assert _method_args(kernel_tree, "ModelNew", method) == _method_args(
                task_tree, "Model", method
            ), f"{task.name}: ModelNew.{method} signature differs from Model.{method}"


def test_every_smoke_kernel_builds_cpp_with_load_inline_and_openmp():
    for name in EXPECTED_ORDER:
        source = (KERNEL_DIR / f"{name}.py").read_text()
        assert "load_inline(" in source, name
        assert "-fopenmp" in source, name
        assert "data_ptr<float>()" in source, name


def test_smoke_kernels_do_not_call_the_reference_model():
    for name in EXPECTED_ORDER:
        tree = _kernel_tree(name)
        called = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert "Model" not in called, name


def test_smoke_tasks_have_size_constants_to_override():
    for task in load_batch(SMOKE_DIR):
        assert task.size_constants(), f"{task.name} has no module-level size constants"
