"""Users' own documents: copied into the index's cache directory and searched with ours."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterable
from pathlib import Path

from kernelsearch.errors import ConfigError
from kernelsearch.retrieval.corpus import DOC_SUFFIXES, parse_file
from kernelsearch.retrieval.index import DocsIndex

log = logging.getLogger(__name__)


def add_documents(paths: Iterable[Path | str], cache_dir: Path | str | None = None) -> list[Path]:
    """Copy markdown, text or HTML files (or every such file in a directory) into the user
    document store and rebuild the index. Returns the stored copies.

    Raises ConfigError naming the file for a missing path, an unsupported type, or a document
    with no text.
    """
    index = DocsIndex(cache_dir=cache_dir)
    files: list[Path] = []
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() in DOC_SUFFIXES)
            if not found:
                raise ConfigError(f"{path}: no {', '.join(DOC_SUFFIXES)} files in this directory")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise ConfigError(f"{path}: no such file or directory")
    for path in files:
        if not parse_file(path):  # validates the suffix too
            raise ConfigError(f"{path}: the document has no text to index")
    index.user_docs_dir.mkdir(parents=True, exist_ok=True)
    stored: list[Path] = []
    for path in files:
        target = index.user_docs_dir / path.name
        if target.exists() and target.read_bytes() != path.read_bytes():
            log.info("replacing user document %s", target.name)
        shutil.copyfile(path, target)
        stored.append(target)
    index.build()
    return stored
