"""Names and text: snake_case and PascalCase spellings, docstrings, wrapped lines, the do-not-edit banner."""

from __future__ import annotations

import keyword
import re
import textwrap
from typing import List, Optional

BANNER = (
    '"""{what}\n\n'
    "Generated from spec/openapi.yaml by sdk-python/scripts/generate_operations.py. Do not edit: change the spec and\n"
    'run `npm run generate`.\n"""\n'
)


def snake(name: str) -> str:
    """``listApiKeys`` → ``list_api_keys``, ``If-None-Match`` → ``if_none_match``, ``from`` → ``from_``."""
    name = re.sub(r"[^0-9A-Za-z]+", "_", name)
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    name = re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    name = name.strip("_").lower()
    return name + "_" if keyword.iskeyword(name) or name == "self" else name


def pascal(name: str) -> str:
    """``statusReports`` → ``StatusReports``, ``API Keys`` → ``ApiKeys``, ``getProjectHealth`` → ``GetProjectHealth``."""
    return "".join(part[:1].upper() + part[1:].lower() if part.isupper() else part[:1].upper() + part[1:]
                   for part in re.split(r"[^0-9A-Za-z]+", name) if part)


def one_line(text: Optional[str]) -> str:
    return " ".join((text or "").split())


def docstring(text: str, indent: str) -> str:
    """A triple-quoted docstring at ``indent``."""
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').rstrip()
    lines = [f"{indent}{line}".rstrip() for line in text.split("\n")]
    lines[0] = lines[0].lstrip()
    if len(lines) == 1:
        return f'{indent}"""{lines[0]}"""\n'
    return f'{indent}"""{lines[0]}\n' + "\n".join(lines[1:]) + f'\n{indent}"""\n'


def wrap(text: str, width: int = 110, prefix: str = "", subsequent: str = "    ") -> List[str]:
    return textwrap.wrap(text, width=width, initial_indent=prefix, subsequent_indent=subsequent,
                         break_long_words=False, break_on_hyphens=False) or [prefix]
