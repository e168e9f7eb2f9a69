"""Documentation sections: the unit the index stores and a search returns.

A corpus is a set of directories of markdown (our `docs_index/`, plus users' added documents).
Each `## ` heading starts one section; its id is `<file stem>/<slug of the heading>`. A line
starting `Symptoms:` names the error messages or slow-kernel signs the section answers.
Plain-text and HTML documents become sections too (split on their own headings when they
have them, else one section per file).
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import asdict, dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from kernelsearch.errors import ConfigError

MARKDOWN_SUFFIXES = (".md", ".markdown")
TEXT_SUFFIXES = (".txt", ".rst")
HTML_SUFFIXES = (".html", ".htm")
DOC_SUFFIXES = MARKDOWN_SUFFIXES + TEXT_SUFFIXES + HTML_SUFFIXES

SYMPTOMS_PREFIX = "symptoms:"
_SLUG_STRIP = re.compile(r"[^a-z0-9]+")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


@dataclass(frozen=True)
class DocSection:
    """One documentation section. `source` is the file it came from (relative when ours)."""

    id: str
    title: str
    symptoms: str
    body: str
    source: str

    @property
    def text(self) -> str:
        """Markdown for a reader: heading, symptoms line, body."""
        parts = [f"## {self.title}"]
        if self.symptoms:
            parts.append(f"Symptoms: {self.symptoms}")
        parts.append(self.body)
        return "\n\n".join(p for p in parts if p).strip()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> DocSection:
        return cls(**d)


def slugify(text: str) -> str:
    """'tl.dot shape rules' -> 'tl-dot-shape-rules'."""
    return _SLUG_STRIP.sub("-", text.lower()).strip("-") or "section"


def parse_markdown(text: str, stem: str, source: str) -> list[DocSection]:
    """Split markdown on `## ` headings. Text before the first one (a `# ` title, an intro) is
    kept only when the file has no `## ` headings at all."""
    sections: list[DocSection] = []
    title: str | None = None
    lines: list[str] = []
    preamble: list[str] = []
    file_title = stem

    def flush() -> None:
        if title is not None:
            sections.append(_make_section(stem, title, lines, source, sections))

    for line in text.splitlines():
        m = _HEADING.match(line)
        if m and len(m.group(1)) == 2:
            flush()
            title, lines = m.group(2), []
        elif title is None:
            if m and len(m.group(1)) == 1:
                file_title = m.group(2)
            else:
                preamble.append(line)
        else:
            lines.append(line)
    flush()
    if not sections and "".join(preamble).strip():
        sections.append(_make_section(stem, file_title, preamble, source, sections))
    return sections


def _make_section(
    stem: str, title: str, lines: list[str], source: str, earlier: list[DocSection]
) -> DocSection:
    symptoms = ""
    body: list[str] = []
    for line in lines:
        if not symptoms and line.strip().lower().startswith(SYMPTOMS_PREFIX):
            symptoms = line.strip()[len(SYMPTOMS_PREFIX) :].strip()
        else:
            body.append(line)
    base = f"{stem}/{slugify(title)}"
    section_id, n = base, 2
    taken = {s.id for s in earlier}
    while section_id in taken:  # two sections with one heading in a file stay distinct
        section_id, n = f"{base}-{n}", n + 1
    return DocSection(
        id=section_id, title=title, symptoms=symptoms, body="\n".join(body).strip(), source=source
    )


class _TextExtractor(HTMLParser):
    """HTML to markdown-ish text: h1/h2 become headings, scripts and styles are dropped."""

    _SKIP = {"script", "style", "head", "nav", "footer"}
    _BLOCK = {"p", "div", "li", "pre", "br", "tr", "section", "article", "h3", "h4", "h5", "h6"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._skip_depth = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in self._SKIP:
            self._skip_depth += 1
        elif tag == "h1":
            self.out.append("\n# ")
        elif tag == "h2":
            self.out.append("\n## ")
        elif tag in self._BLOCK:
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif tag in ("h1", "h2") or tag in self._BLOCK:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip_depth:
            self.out.append(data)


def html_to_text(markup: str) -> str:
    parser = _TextExtractor()
    parser.feed(markup)
    parser.close()
    text = html.unescape("".join(parser.out))
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r"\n[ \t]+", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def parse_file(path: Path, root: Path | None = None) -> list[DocSection]:
    """Sections of one document, by its suffix. Raises ConfigError for other file types."""
    suffix = path.suffix.lower()
    if suffix not in DOC_SUFFIXES:
        raise ConfigError(
            f"{path}: unsupported document type {suffix or '(none)'}; "
            f"use one of {', '.join(DOC_SUFFIXES)}"
        )
    try:
        raw = path.read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise ConfigError(f"{path}: cannot read document: {e}") from None
    text = html_to_text(raw) if suffix in HTML_SUFFIXES else raw
    source = str(path.relative_to(root)) if root is not None else str(path)
    return parse_markdown(text, path.stem, source)


def corpus_files(dirs: list[Path]) -> list[tuple[Path, Path]]:
    """(root, file) for every document under `dirs`, in a stable order."""
    found: list[tuple[Path, Path]] = []
    for root in dirs:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix.lower() in DOC_SUFFIXES:
                found.append((root, path))
    return found


def corpus_hash(dirs: list[Path]) -> str:
    """Content hash of every document (name and bytes): the index is rebuilt when it changes."""
    digest = hashlib.sha256()
    for root, path in corpus_files(dirs):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def load_sections(dirs: list[Path]) -> list[DocSection]:
    """Every section under `dirs`. A later directory's section with an already-used id is
    renamed with a numeric suffix so ids stay unique."""
    sections: list[DocSection] = []
    taken: set[str] = set()
    for root, path in corpus_files(dirs):
        for section in parse_file(path, root):
            section_id, n = section.id, 2
            while section_id in taken:
                section_id, n = f"{section.id}-{n}", n + 1
            taken.add(section_id)
            if section_id != section.id:
                section = DocSection(
                    section_id, section.title, section.symptoms, section.body, section.source
                )
            sections.append(section)
    return sections
