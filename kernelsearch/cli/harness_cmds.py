"""`kernelsearch eval | baseline | tasks | doctor`: the harness from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from kernelsearch.backends import REGISTRY
from kernelsearch.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_INCOMPLETE,
    EXIT_NOT_ACCEPTED,
    EXIT_OK,
    console,
    err_console,
    setup_logging,
    user_errors,
)
from kernelsearch.config import EvalConfig, default_cache_dir
from kernelsearch.result import EvalResult, Stage
from kernelsearch.tasks import load_batch, load_task

BACKEND_HELP = f"Kernel language: {', '.join(sorted(REGISTRY))} (auto: cuda with a GPU, else cpu)."


def resolve_backend(name: str) -> str:
    if name != "auto":
        return name
    from kernelsearch.doctor import gpu_names

    return "cuda" if gpu_names() else "cpu"


def make_config(
    backend: str,
    trials: int | None,
    arch: str | None,
    allow_torch_ops: bool,
    cache_dir: Path | None,
    timing_trials: int | None = None,
) -> EvalConfig:
    changes: dict = {
        "backend": resolve_backend(backend),
        "arch": arch,
        "allow_torch_ops": allow_torch_ops,
    }
    if trials is not None:
        changes["correctness_trials"] = trials
    if timing_trials is not None:
        changes["timing_trials"] = timing_trials
        changes["gpu_timing_trials"] = timing_trials
    if cache_dir is not None:
        changes["cache_dir"] = cache_dir
    return EvalConfig(**changes)


def exit_code_for(result: EvalResult) -> int:
    if result.stage is Stage.COMPILED or (result.accepted and result.interpreted):
        return EXIT_INCOMPLETE
    return EXIT_OK if result.accepted else EXIT_NOT_ACCEPTED


def _fmt_ms(x: float | None) -> str:
    return "-" if x is None else f"{x:.4f}"


def _fmt_x(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}x"


def _stage_text(result: EvalResult) -> str:
    colour = "green" if result.accepted else ("yellow" if result.stage is Stage.COMPILED else "red")
    extra = " (interpreted)" if result.interpreted else ""
    return f"[{colour}]{result.stage.value}{extra}[/]"


def render_result(result: EvalResult) -> None:
    table = Table(title=f"{result.task} on {result.backend} ({result.device})", show_header=False)
    table.add_row("stage", _stage_text(result))
    table.add_row("accepted", str(result.accepted))
    if result.trials_run:
        table.add_row("correctness", f"{result.trials_passed}/{result.trials_run} trials")
    if result.mismatch:
        m = result.mismatch
        table.add_row(
            "mismatch",
            f"{m.reason}; max|diff| {m.max_abs_diff:.3g}, "
            f"bad {m.bad_fraction:.2%}, first at {m.first_bad_index}",
        )
    if result.runtime:
        r = result.runtime
        table.add_row(
            "runtime ms",
            f"median {r.median:.4f} (mean {r.mean:.4f}, std {r.std:.4f}, "
            + ("" if r.iqr is None else f"IQR {r.iqr:.4f}, ")
            + f"min {r.min:.4f}, max {r.max:.4f}; {r.trials} trials, {r.method})",
        )
        table.add_row(
            "eager / compile ms",
            f"{_fmt_ms(result.baseline_eager_ms)} / {_fmt_ms(result.baseline_compile_ms)}",
        )
        table.add_row(
            "speedup eager / compile",
            f"{_fmt_x(result.speedup_eager)} / {_fmt_x(result.speedup_compile)}",
        )
    if result.resources:
        table.add_row("resources", ", ".join(f"{k}={v}" for k, v in result.resources.items()))
    for flag in result.flags:
        table.add_row(f"flag {flag.severity.value}", f"{flag.name}: {flag.reason}")
    if result.error:
        table.add_row("error", result.error[-1500:])
    if result.compile_log and not result.accepted:
        table.add_row("compile log", result.compile_log[-2500:])
    console.print(table)


def register(app: typer.Typer) -> None:
    @app.command("eval")
    def eval_cmd(
        target: Path = typer.Argument(..., help="A task file, or a batch (directory or manifest)."),
        kernel: Path | None = typer.Argument(None, help="The kernel file (for a single task)."),
        kernels: Path | None = typer.Option(
            None, "--kernels", help="Directory of <task>.py kernels for a batch."
        ),
        backend: str = typer.Option("auto", "--backend", "-b", help=BACKEND_HELP),
        trials: int | None = typer.Option(None, "--trials", help="Correctness trials (default 5)."),
        timing_trials: int | None = typer.Option(None, "--timing-trials", help="Timed trials."),
        arch: str | None = typer.Option(
            None, "--arch", help="Target GPU architecture (default: local GPU's, else sm_90a)."
        ),
        allow_torch_ops: bool = typer.Option(
            False,
            "--allow-torch-ops",
            help="Let PyTorch compute ops stay in forward (warnings, not errors).",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the EvalResult JSON on stdout."),
        feedback: bool = typer.Option(
            False, "--feedback", help="Print the feedback text the reflection LLM would read."
        ),
        cache_dir: Path | None = typer.Option(
            None, "--cache-dir", help="Build/baseline cache (default ~/.cache/kernelsearch)."
        ),
        verbose: bool = typer.Option(False, "--verbose", "-v"),
    ) -> None:
        """Build, check and time a kernel against a task (or a directory of kernels against a batch)."""
        setup_logging(verbose)
        with user_errors():
            config = make_config(backend, trials, arch, allow_torch_ops, cache_dir, timing_trials)
            if kernels is not None:
                raise typer.Exit(_eval_batch(target, kernels, config, as_json, feedback))
            if kernel is None:
                err_console.print(
                    "[bold red]error:[/] give a KERNEL file, or --kernels DIR for a batch"
                )
                raise typer.Exit(EXIT_BAD_INPUT)
            task = load_task(target)
            if not kernel.is_file():
                err_console.print(f"[bold red]error:[/] {kernel}: kernel file does not exist")
                raise typer.Exit(EXIT_BAD_INPUT)
            from kernelsearch.harness.evaluate import Harness

            with Harness(config) as harness:
                result = harness.evaluate(task, kernel.read_text())
        if as_json:
            print(result.to_json())
        else:
            render_result(result)
        if feedback:
            console.print(_feedback(result), markup=False, highlight=False)
        raise typer.Exit(exit_code_for(result))

    @app.command("baseline")
    def baseline_cmd(
        batch: Path = typer.Argument(..., help="A task file, directory or manifest."),
        backend: str = typer.Option("auto", "--backend", "-b", help=BACKEND_HELP),
        timing_trials: int | None = typer.Option(None, "--timing-trials", help="Timed trials."),
        refresh: bool = typer.Option(
            False, "--refresh", help="Measure again instead of using the cache."
        ),
        as_json: bool = typer.Option(False, "--json"),
        cache_dir: Path | None = typer.Option(None, "--cache-dir"),
        verbose: bool = typer.Option(False, "--verbose", "-v"),
    ) -> None:
        """Time PyTorch eager and torch.compile for every task (cached per task, device, torch)."""
        setup_logging(verbose)
        from kernelsearch.harness.evaluate import Harness

        rows = []
        with user_errors():
            tasks = load_batch(batch)
            config = make_config(backend, None, None, False, cache_dir, timing_trials)
            with Harness(config) as harness:
                if not harness.can_time:
                    err_console.print(
                        f"[bold red]error:[/] the {config.backend} backend cannot "
                        "time kernels on this machine (no GPU); use --backend cpu"
                    )
                    raise typer.Exit(EXIT_BAD_INPUT)
                with console.status("timing baselines...") as status:
                    for task in tasks:
                        status.update(f"timing {task.name} (eager, torch.compile)...")
                        rows.append(harness.baseline(task, use_cache=not refresh))
        if as_json:
            print(json.dumps([r.to_dict() | {"cached": r.cached} for r in rows], indent=2))
            return
        table = Table(title=f"Baselines ({config.backend}, {rows[0].device_name if rows else ''})")
        for col in ("task", "eager ms", "compile ms", "compile/eager", "cached"):
            table.add_column(col)
        for r in rows:
            e = r.eager.median if r.eager else None
            c = r.compile.median if r.compile else None
            ratio = f"{e / c:.2f}x" if e and c else ("failed" if r.compile_error else "-")
            table.add_row(r.task, _fmt_ms(e), _fmt_ms(c), ratio, "yes" if r.cached else "")
        console.print(table)

    @app.command("tasks")
    def tasks_cmd(
        batch: Path = typer.Argument(..., help="A task file, directory or manifest."),
        as_json: bool = typer.Option(False, "--json"),
        verbose: bool = typer.Option(False, "--verbose", "-v"),
    ) -> None:
        """List tasks: input shapes and dtypes, parameters, FLOPs and bytes (meta device; nothing materialised)."""
        setup_logging(verbose)
        from kernelsearch.harness.evaluate import Harness

        with user_errors():
            tasks = load_batch(batch)
            with Harness(EvalConfig(backend="cpu", baselines=False)) as harness:
                infos = [harness.inspect(t) for t in tasks]
        if as_json:
            print(json.dumps([i.to_dict() for i in infos], indent=2))
            return
        table = Table(title=f"{len(infos)} task(s) in {batch}")
        for col in ("task", "inputs", "params", "GFLOP", "MB moved", "sizes overridden"):
            table.add_column(col)
        for task, info in zip(tasks, infos):
            shapes = ", ".join(
                f"{x['dtype']}{x['shape']}" if "shape" in x else x.get("value", "?")
                for x in info.inputs
            )
            table.add_row(
                info.name,
                shapes,
                f"{info.parameters:,}",
                f"{info.flops / 1e9:.3f}",
                f"{info.bytes / 1e6:.2f}",
                ", ".join(f"{k}={v}" for k, v in task.sizes.items()),
            )
        console.print(table)

    @app.command("doctor")
    def doctor_cmd(as_json: bool = typer.Option(False, "--json")) -> None:
        """What this machine can run: GPUs, nvcc, C++ compiler, Triton, sandbox, LLM credentials."""
        from kernelsearch.doctor import diagnose

        report = diagnose(default_cache_dir())
        if as_json:
            print(json.dumps(report, indent=2))
            return
        table = Table(title="kernelsearch doctor", show_header=False)
        for key, value in report.items():
            if isinstance(value, list):
                value = ", ".join(map(str, value)) or "none"
            table.add_row(key, str(value))
        console.print(table)


def _eval_batch(
    target: Path, kernels: Path, config: EvalConfig, as_json: bool, feedback: bool
) -> int:
    from kernelsearch.harness.batch import evaluate_batch

    tasks = load_batch(target)
    with console.status(f"evaluating {len(tasks)} task(s)...", spinner="dots"):
        items = evaluate_batch(tasks, kernels, config)
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "task": i.task.name,
                        "kernel": str(i.kernel_path) if i.kernel_path else None,
                        "result": i.result.to_dict() if i.result else None,
                    }
                    for i in items
                ],
                indent=2,
            )
        )
    else:
        table = Table(title=f"{target} with kernels from {kernels} ({config.backend})")
        for col in ("task", "stage", "accepted", "ms", "vs eager", "vs compile", "flags"):
            table.add_column(col)
        for i in items:
            r = i.result
            if r is None:
                table.add_row(i.task.name, "[dim]no kernel[/]", "", "", "", "", "")
                continue
            table.add_row(
                i.task.name,
                _stage_text(r),
                "yes" if r.accepted else "no",
                _fmt_ms(r.runtime_ms),
                _fmt_x(r.speedup_eager),
                _fmt_x(r.speedup_compile),
                ", ".join(f.name for f in r.flags if f.severity.value != "info"),
            )
        console.print(table)
        if feedback:
            for i in items:
                if i.result is not None:
                    console.rule(i.task.name)
                    console.print(_feedback(i.result), markup=False, highlight=False)
    results = [i.result for i in items if i.result is not None]
    if (
        not results
        or any(not r.accepted and r.stage is not Stage.COMPILED for r in results)
        or len(results) < len(items)
    ):
        return EXIT_NOT_ACCEPTED
    return max(exit_code_for(r) for r in results)


def _feedback(result: EvalResult) -> str:
    from kernelsearch.feedback import render_feedback
    from kernelsearch.hardware import detect
    from kernelsearch.retrieval import ApiFactsIndex, DocsIndex

    device = "cpu" if result.backend == "cpu" else "cuda"
    return render_feedback(
        result, retriever=DocsIndex(), hardware=detect(device), api=ApiFactsIndex()
    )
