"""Load task and candidate sources as real modules from files (Triton reads source files)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_module(source: str, path: Path, module_name: str) -> ModuleType:
    """Write `source` to `path` and import it under `module_name` (registered in sys.modules)."""
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module
