"""Caches written as whole SQLite files: built beside their final path, then moved into place."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path


def write_database(path: Path, fill: Callable[[sqlite3.Connection], None]) -> None:
    """Create a fresh database, let `fill` write it in one transaction, and replace `path` with
    it in one step: processes sharing the cache see the old file or the new one, never half of
    one. On any error `path` is left as it was and the partial file is removed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f"{path.stem}-", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        con = sqlite3.connect(tmp_name)
        try:
            with con:
                fill(con)
        finally:
            con.close()
        os.replace(tmp_name, path)
    finally:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
