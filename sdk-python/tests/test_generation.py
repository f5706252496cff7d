"""A new operation in the spec reaches the SDK through the generator alone (issue 3, "Done means").

Generates the SDK from a copy of the bundled contract (generated/openapi.yaml) with two extra operations, one under an existing tag
(``getProjectHealth``, tag Projects, with an inline response schema) and a list under a new tag (``listPortfolios``, tag
Portfolios), into a temporary directory with scripts/generate-sdk-python.sh, puts the new generated tree beside an
unchanged copy of the hand-written package, and calls both operations through ``Meridian`` and ``AsyncMeridian``
against a real local server, paginating the new list; mypy --strict then checks that the new operations are typed
(a typo in the new list's filter is an error). A third operation, served outside ``/v1`` (its own ``servers``), is
requested at the server's root. No file of the SDK is edited.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import meridian

REPO = Path(__file__).resolve().parents[2]
SDK = REPO / "sdk-python"
TESTS = Path(__file__).resolve().parent

ADD_OPERATIONS = """
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
const doc = parse(readFileSync('generated/openapi.yaml', 'utf8'));
const problem = { $ref: '#/components/responses/Problem' };
doc.paths['/projects/{id}/health'] = {
  parameters: [{ $ref: '#/components/parameters/Id' }],
  get: {
    operationId: 'getProjectHealth', tags: ['Projects'], summary: 'Get a project health score',
    description: 'A test-only operation.',
    responses: {
      '200': { description: 'The score.', content: { 'application/json': { schema: {
        type: 'object', required: ['score', 'label'],
        properties: { score: { type: 'integer' }, label: { type: 'string' } } } } } },
      default: problem,
    },
  },
};
doc.paths['/portfolios'] = {
  get: {
    operationId: 'listPortfolios', tags: ['Portfolios'], summary: 'List portfolios', description: 'A test-only operation.',
    parameters: [{ name: 'region', in: 'query', schema: { type: 'string', maxLength: 20 } },
      { $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/Offset' }],
    responses: {
      '200': { description: 'A page.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ProjectList' } } } },
      default: problem,
    },
  },
};
doc.paths['/probe'] = {
  servers: [{ url: '/' }],
  get: {
    operationId: 'getProbe', tags: ['Probes'], summary: 'A probe outside /v1', description: 'A test-only operation.',
    security: [],
    responses: {
      '200': { description: 'Up.', content: { 'application/json': { schema: {
        type: 'object', required: ['status'], properties: { status: { type: 'string' } } } } } },
      default: problem,
    },
  },
};
writeFileSync(process.argv[1], JSON.stringify(doc));
"""

CALL_THEM = """
import asyncio, sys
import meridian
from conftest import Reply, ScriptedServer
assert meridian.__file__.startswith(sys.argv[1]), meridian.__file__
page = {"data": [], "pagination": {"limit": 25, "offset": 0, "total": 0, "hasMore": False}}
replies = [Reply(200, {"score": 80, "label": "healthy"}), Reply(200, page), Reply(200, page), Reply(200, {"status": "ok"})]
with ScriptedServer(replies) as server:
    client = server.client()
    health = client.projects.get_project_health("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a")
    portfolios = client.portfolios.list_portfolios(region="east")
    walked = list(client.paginate(client.portfolios.list_portfolios, region="east"))
    probe = client.probes.get_probe()
    print(health.score, health.label, portfolios.pagination.total, len(walked), probe.status,
          *[r.path for r in server.requests])

async def main() -> None:
    with ScriptedServer([Reply(200, {"score": 81, "label": "fine"})]) as server:
        async with meridian.AsyncMeridian(api_key="mk_live_x", base_url=server.url) as client:
            health = await client.projects.get_project_health("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a")
            print(health.score, health.label)

asyncio.run(main())
"""

TYPED = """
import meridian

client = meridian.Meridian(api_key="mk_live_x")
health = client.projects.get_project_health("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a")
score: int = health.score
for portfolio in client.paginate(client.portfolios.list_portfolios, region="east"):
    print(portfolio.name)
client.paginate(client.portfolios.list_portfolios, regoin="east")
"""


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("java") is None, reason="needs node and java")
def test_new_operations_are_callable_after_generation(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.json"
    subprocess.run(["node", "--input-type=module", "-e", ADD_OPERATIONS, str(spec)], cwd=REPO, check=True)
    out = tmp_path / "out"
    subprocess.run(
        ["bash", "scripts/generate-sdk-python.sh", str(out)],
        cwd=REPO,
        env={**os.environ, "MERIDIAN_SPEC": str(spec)},
        check=True,
        capture_output=True,
    )
    written = [str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and p.parent.name != "models"]
    assert sorted(written) == [
        "sdk-python/meridian/_generated/__init__.py",
        "sdk-python/meridian/_generated/py.typed",
        "sdk-python/meridian/_generated/resources.py",
        "sdk-python/meridian/_generated/webhook_events.py",
    ]

    # The hand-written package, unchanged, with the newly generated tree in place of the committed one.
    package = tmp_path / "pkg"
    shutil.copytree(SDK / "meridian", package / "meridian", ignore=shutil.ignore_patterns("_generated", "__pycache__"))
    shutil.copytree(out / "sdk-python" / "meridian" / "_generated", package / "meridian" / "_generated")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(package), str(TESTS)]), "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [sys.executable, "-c", CALL_THEM, str(package)], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "80", "healthy", "0", "0", "ok", "/v1/projects/0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a/health",
        "/v1/portfolios?region=east", "/v1/portfolios?region=east&limit=100&offset=0", "/probe", "81", "fine",
    ]

    program = tmp_path / "typed.py"
    program.write_text(TYPED)
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", str(SDK / "pyproject.toml"),
         str(program)],
        cwd=tmp_path, env={**env, "MYPYPATH": str(package)}, capture_output=True, text=True,
    )
    errors = [line for line in checked.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, checked.stdout
    assert 'Unexpected keyword argument "regoin"' in errors[0] and "typed.py:9:" in errors[0]


def test_every_operation_of_the_spec_is_reachable(client: meridian.Meridian) -> None:
    """Each operation of the contract (the webhook events aside: the server sends those, clients do not call
    them) is ``client.<tag in snake_case>.<operationId in snake_case>`` on both clients, with its ``…_with_response``
    twin, and the async client's are coroutine functions."""
    spec = json.loads(
        subprocess.run(
            ["node", "--input-type=module", "-e",
             "import { readFileSync } from 'node:fs'; import { parse } from 'yaml';"
             "process.stdout.write(JSON.stringify(parse(readFileSync('generated/openapi.yaml', 'utf8'))))"],
            cwd=REPO, check=True, capture_output=True, text=True,
        ).stdout
    )
    operations = [
        (op["operationId"], op["tags"][0])
        for item in spec["paths"].values()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]
    assert len(operations) >= 47
    async_client = meridian.AsyncMeridian(api_key="mk_live_x")
    for operation_id, tag in operations:
        attribute = re.sub(r"\W+", "_", tag).lower()
        method = re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()
        for name in (method, f"{method}_with_response"):
            assert callable(getattr(getattr(client, attribute), name, None)), f"{operation_id}: client.{attribute}.{name}"
            assert inspect.iscoroutinefunction(getattr(getattr(async_client, attribute), name)), name
