"""`kernelsearch run`: a GEPA kernel search over a batch, with a live view and a leaderboard."""

from __future__ import annotations

import re
from pathlib import Path

import typer
from rich.live import Live
from rich.table import Table

from kernelsearch.cli.common import EXIT_BAD_INPUT, EXIT_OK, console, setup_logging, user_errors
from kernelsearch.config import EvalConfig
from kernelsearch.errors import ConfigError
from kernelsearch.report.fmt import FIGURES_LABEL
from kernelsearch.search.config import SearchConfig, read_seed_prompt
from kernelsearch.search.engine import Progress
from kernelsearch.search.summary import RunSummary

EXIT_ABORTED = 130
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*$")
_UNIT_S = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_duration(text: str | None) -> float | None:
    """`90`, `90s`, `30m`, `2h` -> seconds."""
    if text is None:
        return None
    m = _DURATION.match(text)
    if not m:
        raise ConfigError(f"--max-time {text!r}: use seconds or a suffix, e.g. 90s, 30m, 2h")
    return float(m.group(1)) * _UNIT_S[m.group(2)]


def _speed(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}x"


def _duration(s: float | None) -> str:
    if s is None:
        return "-"
    s = int(s)
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


def progress_table(p: Progress) -> Table:
    title = (
        f"iteration {p.iteration} ({p.in_flight} in flight) | pool {p.pool_size} | "
        f"frontier {p.frontier_size} | evals {p.evals_used}/{p.eval_budget} | "
        f"${p.cost_usd:.4f} | {_duration(p.elapsed_s)} elapsed, ETA {_duration(p.eta_s)}"
    )
    table = Table(title=title, title_justify="left", caption=p.message or None)
    table.add_column("task")
    table.add_column("best speedup", justify="right")
    table.add_column("status")
    for name, t in p.tasks.items():
        status = "[green]accepted[/]" if t.accepted else "[yellow]no accepted kernel yet[/]"
        table.add_row(name, _speed(t.speedup), status)
    return table


def leaderboard(summary: RunSummary) -> Table:
    table = Table(
        title=f"{summary.run_id}: {summary.status} ({summary.stop_reason}); "
        f"objective {summary.objective}, baseline {summary.baseline}",
        title_justify="left",
    )
    for col in ("task", "status", "vs eager", "vs compile", "timing", "kernel"):
        table.add_column(col, justify="right" if col.startswith("vs") else "left")
    for t in sorted(summary.tasks, key=lambda t: -(t.speedup_eager or 0.0)):
        status = "[green]accepted[/]" if t.accepted else f"[red]{t.stage}[/]"
        table.add_row(
            t.task,
            status,
            _speed(t.speedup_eager),
            _speed(t.speedup_compile),
            FIGURES_LABEL.get(t.figures, "-"),
            t.kernel_file or "-",
        )
    return table


def _print_summary(summary: RunSummary) -> None:
    console.print(leaderboard(summary))
    cost = f"${summary.cost_usd:.4f}" + ("" if summary.cost_complete else " (some models unpriced)")
    console.print(
        f"{summary.evaluations}/{summary.eval_budget} evaluations, {summary.llm_calls} LLM calls, "
        f"{cost}, {len(summary.candidates)} candidates, frontier {list(summary.frontier)}, "
        f"best prompt: {summary.files.get('best_prompt', '-')}"
    )
    if summary.test:
        ok = sum(t.accepted for t in summary.test)
        console.print(f"test set: {ok}/{len(summary.test)} accepted with the best prompt")
    console.print(f"run directory: {summary.run_dir}")
    if summary.status == "stopped":
        console.print(f"continue with: kernelsearch run --resume {summary.run_dir}")


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run_cmd(
        batch: Path = typer.Argument(
            None, help="Task batch: a directory, a task file or a TOML manifest."
        ),
        backend: str = typer.Option("cpu", help="Kernel language (cpu, cuda, triton)."),
        model: str = typer.Option(
            None, help="litellm model string of the kernel writer, e.g. openai/gpt-4o."
        ),
        reflection_model: str = typer.Option(
            None, help="Model for reflection and merge (default: --model)."
        ),
        api_base: str = typer.Option(None, help="OpenAI-compatible endpoint (vLLM, Ollama, ...)."),
        budget: int = typer.Option(None, help="Evaluation budget (kernels evaluated)."),
        auto: str = typer.Option(
            None, help="Budget preset instead of --budget: light | medium | heavy."
        ),
        max_cost: float = typer.Option(None, help="Stop starting LLM calls after this many USD."),
        max_time: str = typer.Option(None, help="Wall-clock cap: seconds or 30m / 2h."),
        concurrency: int = typer.Option(None, help="Iterations in flight at once."),
        minibatch_size: int = typer.Option(None, help="Tasks per reflection minibatch."),
        selection: str = typer.Option("pareto", help="Parent selection: pareto | current_best."),
        use_merge: bool = typer.Option(
            True, "--use-merge/--no-merge", help="Merge frontier candidates."
        ),
        max_merges: int = typer.Option(None, help="Most merge attempts in a run."),
        seed: int = typer.Option(0, help="Random seed of the search."),
        seed_prompt: Path = typer.Option(None, help="File with the seed instructions."),
        objective: str = typer.Option("speed", help="speed | correctness | compile."),
        baseline: str = typer.Option("eager", help="Speedups against: eager | compile."),
        valset: Path = typer.Option(None, help="Separate Pareto (validation) task set."),
        testset: Path = typer.Option(None, help="Held-out tasks scored once with the best prompt."),
        out: Path = typer.Option(None, help="Run directory (default results/<run-id>)."),
        resume: Path = typer.Option(None, "--resume", help="Continue the run in this directory."),
        llm_timeout: float = typer.Option(None, help="Seconds before an LLM request is retried."),
        llm_retries: int = typer.Option(None, help="Retries of a failed LLM request."),
        live: bool = typer.Option(True, "--live/--no-live", help="Live progress view."),
        verbose: bool = typer.Option(False, "--verbose", "-v"),
    ) -> None:
        """Evolve a kernel-writing prompt with GEPA over BATCH and keep the best kernel per task."""
        from kernelsearch import search

        setup_logging(verbose)
        with user_errors():
            max_time_s = parse_duration(max_time)
            view = _View(enabled=live and console.is_terminal)
            try:
                with view:
                    if resume is not None:
                        if batch is not None:
                            raise ConfigError("give BATCH or --resume DIR, not both")
                        summary = search.resume(
                            resume,
                            on_progress=view.update,
                            budget=budget,
                            auto=auto,
                            max_cost_usd=max_cost,
                            max_time_s=max_time_s,
                            concurrency=concurrency,
                            api_base=api_base,
                        )
                    else:
                        if batch is None or model is None:
                            raise ConfigError(
                                "usage: kernelsearch run BATCH --model M [options], or "
                                "kernelsearch run --resume RUN_DIR"
                            )
                        config = _config(
                            backend=backend,
                            model=model,
                            reflection_model=reflection_model,
                            api_base=api_base,
                            budget=budget,
                            auto=auto,
                            max_cost=max_cost,
                            max_time_s=max_time_s,
                            concurrency=concurrency,
                            minibatch_size=minibatch_size,
                            selection=selection,
                            use_merge=use_merge,
                            max_merges=max_merges,
                            seed=seed,
                            seed_prompt=seed_prompt,
                            objective=objective,
                            baseline=baseline,
                            llm_timeout_s=llm_timeout,
                            llm_max_retries=llm_retries,
                        )
                        summary = search.run(
                            batch,
                            config,
                            out=out,
                            valset=valset,
                            testset=testset,
                            on_progress=view.update,
                        )
            except KeyboardInterrupt:
                console.print("[red]aborted[/]; the run store is intact and can be resumed")
                raise typer.Exit(EXIT_ABORTED) from None
            _print_summary(summary)
        raise typer.Exit(EXIT_OK if summary.tasks else EXIT_BAD_INPUT)


def _config(**o) -> SearchConfig:  # type: ignore[no-untyped-def]
    changes = {
        "backend": o["backend"],
        "model": o["model"],
        "reflection_model": o["reflection_model"],
        "api_base": o["api_base"],
        "budget": o["budget"],
        "auto": o["auto"],
        "max_cost_usd": o["max_cost"],
        "max_time_s": o["max_time_s"],
        "selection": o["selection"],
        "use_merge": o["use_merge"],
        "seed": o["seed"],
        "objective": o["objective"],
        "baseline": o["baseline"],
        "eval": EvalConfig(backend=o["backend"]),
    }
    for key in ("concurrency", "minibatch_size", "max_merges", "llm_timeout_s", "llm_max_retries"):
        if o[key] is not None:
            changes[key] = o[key]
    if o["seed_prompt"] is not None:
        changes["seed_instructions"] = read_seed_prompt(o["seed_prompt"])
    return SearchConfig(**changes)


class _View:
    """A Rich live table on a terminal; one line per new message elsewhere."""

    def __init__(self, enabled: bool) -> None:
        self.live = Live(console=console, auto_refresh=False) if enabled else None
        self._last = ""

    def __enter__(self) -> _View:
        if self.live is not None:
            self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.live is not None:
            self.live.__exit__(*exc)  # type: ignore[arg-type]

    def update(self, p: Progress) -> None:
        if self.live is not None:
            self.live.update(progress_table(p), refresh=True)
        elif p.message and p.message != self._last:
            self._last = p.message
            console.print(
                f"[{p.evals_used}/{p.eval_budget} evals, ${p.cost_usd:.4f}] {p.message}",
                highlight=False,
            )
