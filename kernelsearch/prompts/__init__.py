"""Prompt templates: readable `*.md` files in this folder, filled with `string.Template`.

Placeholders are `$name` (C++ and Triton code uses braces freely, `$` almost never); a literal
dollar sign is `$$`. `render(name, **values)` fails loudly on a missing value.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from string import Template


@cache
def template(name: str) -> Template:
    """The template `kernelsearch/prompts/<name>.md`."""
    text = resources.files(__package__).joinpath(f"{name}.md").read_text(encoding="utf-8")
    return Template(text)


def render(name: str, **values: object) -> str:
    return template(name).substitute({k: str(v) for k, v in values.items()}).strip() + "\n"


def exists(name: str) -> bool:
    return resources.files(__package__).joinpath(f"{name}.md").is_file()
