"""mypy --strict over what users write: the examples, every Python snippet of both READMEs (extracted from the README
files at test time, with the mypy configuration the SDK's README gives: pydantic's plugin with ``init_typed``), and a
program of typos that must fail, the models' keyword arguments among them.

Also runs the root README's Python example and examples/python/ against the live server, as a user would after
``npm start``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SDK = REPO / "sdk-python"
READMES = [REPO / "README.md", SDK / "README.md"]
EXAMPLES = sorted((REPO / "examples" / "python").glob("*.py"))
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)


def snippets(readme: Path, language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(readme.read_text(encoding="utf-8")) if lang == language]


def user_mypy_config(tmp_path: Path) -> Path:
    """The `[tool.mypy]` block the SDK's README tells users to put in their pyproject.toml."""
    blocks = [b for b in snippets(SDK / "README.md", "toml") if "[tool.mypy]" in b]
    assert len(blocks) == 1, "sdk-python/README.md should show one pyproject.toml block with [tool.mypy]"
    config = tmp_path / "pyproject.toml"
    config.write_text(blocks[0], encoding="utf-8")
    return config


def mypy(tmp_path: Path, *files: Path) -> tuple[int, str]:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file",
         str(user_mypy_config(tmp_path)), *map(str, files)],
        cwd=tmp_path, capture_output=True, text=True,
    )
    return result.returncode, result.stdout + result.stderr


def readme_programs(tmp_path: Path) -> list[Path]:
    """Each README's Python snippets, in order, as one program (later snippets use names the earlier ones define)."""
    programs = []
    for readme in READMES:
        blocks = snippets(readme, "python")
        assert blocks, f"no Python snippet in {readme}"
        program = tmp_path / f"readme_{readme.parent.name.replace('-', '_')}.py"
        program.write_text("\n\n".join(blocks), encoding="utf-8")
        programs.append(program)
    return programs


def test_examples_and_readme_snippets_pass_mypy_strict(tmp_path: Path) -> None:
    assert EXAMPLES, "examples/python/ is empty"
    programs = readme_programs(tmp_path)
    status, output = mypy(tmp_path, *EXAMPLES, *programs)
    assert status == 0, output
    checked = len(EXAMPLES) + len(programs)
    assert f"Success: no issues found in {checked} source files" in output, output
    print(f"mypy --strict: {len(EXAMPLES)} examples and the Python snippets of {len(READMES)} READMEs "
          f"({sum(len(snippets(r, 'python')) for r in READMES)} snippets): 0 errors")


TYPOS = '''
import asyncio
import meridian
from meridian.models import ProjectStatus, RiskCreate, WebhookEventType

client = meridian.Meridian(api_key="mk_live_x")
client.projects.list(stauts=ProjectStatus.AT_RISK)  # E: Unexpected keyword argument "stauts"
client.projectz  # E: "Meridian" has no attribute "projectz"
client.projects.list_projects()  # E: has no attribute "list_projects"
client.projects.list(status=["AT_RSIK"])  # E: List item 0
client.projects.list(limit="10")  # E: Argument "limit"
client.projects.list(sort="-progress")  # E: Argument "sort"
client.risks.list(q="flood")  # E: Unexpected keyword argument "q"
client.projects.retrieve(42)  # E: Argument 1 to "retrieve"
client.projects.list(timeout="5")  # E: Argument "timeout"
name: int = client.projects.retrieve("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a").name  # E: Incompatible types in assignment
client.risks.create(title=123, project_id=None, likelihood="high", impact=[1])  # E: No overload variant of "create"
RiskCreate(title=123, project_id=None, likelihood="high", impact=[1])  # E: Argument "title" to "RiskCreate"
client.risks.create(title="t", project_id="0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a", likelihood=3)  # E: No overload variant
client.projects.milestones.list(status="MISSED")  # E: Too few arguments for "list"
client.webhooks.create(url="https://example.com/hook", events=["risk.create"])  # E: List item 0 has incompatible type
WebhookEventType.RISK_DOT_CREATED  # E: has no attribute "RISK_DOT_CREATED"
meridian.verify_webhook(b"{}", meridian.sign_webhook(b"{}", "whsec_x"), 42)  # E: Argument 3 to "verify_webhook"


async def main() -> None:
    aclient = meridian.AsyncMeridian(api_key="mk_live_x")
    async for project in aclient.projects.list(stauts="AT_RISK"):  # E: Unexpected keyword argument "stauts"
        print(project.nmae)  # E: "Project" has no attribute "nmae"
    aclient.projectz  # E: "AsyncMeridian" has no attribute "projectz"
    for _ in aclient.risks.list():  # E: has no attribute "__iter__"
        pass
    me = aclient.me.retrieve()
    print(me.user)  # E: "Coroutine[Any, Any, Me]" has no attribute "user"


asyncio.run(main())
'''


def test_typos_fail_the_type_checker(tmp_path: Path) -> None:
    program = tmp_path / "typos.py"
    program.write_text(TYPOS, encoding="utf-8")
    status, output = mypy(tmp_path, program)
    assert status == 1, output
    expected = {
        number: comment.split("# E: ", 1)[1]
        for number, comment in enumerate(TYPOS.splitlines(), start=1)
        if "# E: " in comment
    }
    reported: dict[int, list[str]] = {}
    for line in output.splitlines():
        match = re.match(r".*typos\.py:(\d+): error: (.*)", line)
        if match:
            reported.setdefault(int(match.group(1)), []).append(match.group(2))
    assert sorted(reported) == sorted(expected), output
    for number, fragment in expected.items():
        assert any(fragment in message for message in reported[number]), (number, fragment, reported[number])
    print(f"mypy --strict on {len(expected)} typos: {len(expected)} lines in error, as expected")


def live_env(base_url: str, api_key: str) -> dict[str, str]:
    return {**os.environ, "MERIDIAN_BASE_URL": base_url, "MERIDIAN_API_KEY": api_key, "PYTHONDONTWRITEBYTECODE": "1"}


def test_root_readme_python_example_runs_against_the_demo(tmp_path: Path, base_url: str, api_key: str) -> None:
    blocks = snippets(REPO / "README.md", "python")
    program = tmp_path / "readme_example.py"
    program.write_text("\n\n".join(blocks), encoding="utf-8")
    result = subprocess.run([sys.executable, str(program)], env=live_env(base_url, api_key), capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any("NYC-" in line for line in lines), result.stdout
    assert lines[-1].split()[0] == "16", result.stdout  # likelihood 4 × impact 4


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_examples_run_against_the_demo(example: Path, base_url: str, api_key: str) -> None:
    result = subprocess.run([sys.executable, str(example)], env=live_env(base_url, api_key), capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "AT_RISK" in result.stdout and "Created risk" in result.stdout, result.stdout
