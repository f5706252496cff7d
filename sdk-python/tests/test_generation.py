"""New operations in the spec join the SDK's resource tree through the generator alone.

Generates the SDK from a copy of the bundled contract (generated/openapi.yaml) with five extra operations — a nested
read named by its path (``GET /projects/{id}/health`` → ``projects.health.retrieve``), a list and a create under a
new resource (``portfolios.list``, ``portfolios.create`` with typed keyword arguments), an action named by ``x-sdk``
(``POST /api-keys/{id}/suspend`` → ``api_keys.suspend``) and a probe served outside ``/v1`` (its own ``servers``) — into a
temporary directory with scripts/generate-sdk-python.sh, puts the new generated tree beside an unchanged copy of the
hand-written package, and calls them through ``Meridian`` and ``AsyncMeridian`` against a real local server,
iterating the new list; mypy --strict then checks that the new methods are typed. No file of the SDK is edited.
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import meridian
from meridian._generated.resources import RESOURCE_METHODS

REPO = Path(__file__).resolve().parents[2]
SDK = REPO / "sdk-python"
TESTS = Path(__file__).resolve().parent

ADD_OPERATIONS = """
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
const doc = parse(readFileSync('generated/openapi.yaml', 'utf8'));
const problem = { $ref: '#/components/responses/Problem' };
const json = (schema) => ({ 'application/json': { schema } });
const test = { description: 'A test-only operation.', 'x-required-scope': 'read' };
doc.paths['/projects/{id}/health'] = {
  parameters: [{ $ref: '#/components/parameters/Id' }],
  get: { ...test, operationId: 'getProjectHealth', tags: ['Projects'], summary: 'Get a project health score',
    responses: { '200': { description: 'The score.', content: json({ type: 'object', required: ['score', 'label'],
      properties: { score: { type: 'integer' }, label: { type: 'string' } } }) }, default: problem } },
};
doc.paths['/portfolios'] = {
  get: { ...test, operationId: 'listPortfolios', tags: ['Projects'], summary: 'List portfolios',
    parameters: [{ name: 'region', in: 'query', schema: { type: 'string', maxLength: 20 } },
      { $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/Offset' }],
    responses: { '200': { description: 'A page.', content: json({ $ref: '#/components/schemas/ProjectList' }) },
      default: problem } },
  post: { ...test, operationId: 'createPortfolio', tags: ['Projects'], summary: 'Create a portfolio',
    'x-required-scope': 'write',
    requestBody: { required: true, content: json({ type: 'object', required: ['name'], additionalProperties: false,
      properties: { name: { type: 'string', maxLength: 50 }, ownerId: { type: 'string', format: 'uuid' } } }) },
    responses: { '201': { description: 'Made.', content: json({ type: 'object', required: ['name'],
      properties: { name: { type: 'string' } } }) }, default: problem } },
};
doc.paths['/api-keys/{id}/suspend'] = {
  post: { ...test, operationId: 'suspendApiKey', 'x-sdk': { method: 'suspend' }, tags: ['API Keys'],
    summary: 'Suspend a key', parameters: [{ $ref: '#/components/parameters/Id' }],
    responses: { '200': { description: 'The new key.', content: json({ type: 'object', required: ['key'],
      properties: { key: { type: 'string' } } }) }, default: problem } },
};
doc.paths['/probe'] = {
  servers: [{ url: '/' }],
  get: { ...test, operationId: 'getProbe', tags: ['Probes'], summary: 'A probe outside /v1', security: [],
    responses: { '200': { description: 'Up.', content: json({ type: 'object', required: ['status'],
      properties: { status: { type: 'string' } } }) }, default: problem } },
};
writeFileSync(process.argv[1], JSON.stringify(doc));
"""

CALL_THEM = """
import asyncio, json, sys
import meridian
from conftest import Reply, ScriptedServer
assert meridian.__file__.startswith(sys.argv[1]), meridian.__file__
page = {"data": [], "pagination": {"limit": 25, "offset": 0, "total": 0, "hasMore": False}}
replies = [Reply(200, {"score": 80, "label": "healthy"}), Reply(200, page), Reply(201, {"name": "East"}),
           Reply(200, {"key": "mk_live_rolled"}), Reply(200, {"status": "ok"})]
with ScriptedServer(replies) as server:
    client = server.client()
    health = client.projects.health.retrieve("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a")
    walked = list(client.portfolios.list(region="east"))
    made = client.portfolios.create(name="East")
    rolled = client.api_keys.suspend("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a")
    probe = client.probe.retrieve()
    print(health.score, health.label, len(walked), made.name, rolled.key, probe.status,
          json.loads(server.requests[2].body)["name"], *[r.path for r in server.requests])

async def main() -> None:
    with ScriptedServer([Reply(200, {"score": 81, "label": "fine"})]) as server:
        async with meridian.AsyncMeridian(api_key="mk_live_x", base_url=server.url) as client:
            health = await client.projects.health.with_raw_response.retrieve("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a")
            print(health.data.score, health.data.label, health.status_code)

asyncio.run(main())
"""

TYPED = """
import meridian

client = meridian.Meridian(api_key="mk_live_x")
health = client.projects.health.retrieve("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a")
score: int = health.score
for portfolio in client.portfolios.list(region="east"):
    print(portfolio.name)
client.portfolios.list(regoin="east")
client.portfolios.create(name=42)
key: str = client.api_keys.suspend("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a").key
"""


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("java") is None, reason="needs node and java")
def test_new_operations_join_the_tree_after_generation(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.json"
    subprocess.run(["node", "--input-type=module", "-e", ADD_OPERATIONS, str(spec)], cwd=REPO, check=True)
    out = tmp_path / "out"
    generated = subprocess.run(
        ["bash", "scripts/generate-sdk-python.sh", str(out)],
        cwd=REPO, env={**os.environ, "MERIDIAN_SPEC": str(spec)}, capture_output=True, text=True,
    )
    assert generated.returncode == 0, generated.stderr
    written = [str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and p.parent.name != "models"]
    assert sorted(written) == [f"sdk-python/meridian/_generated/{name}" for name in (
        "__init__.py", "params.py", "py.typed", "resources.py", "version.py", "webhook_events.py")]

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
        "80", "healthy", "0", "East", "mk_live_rolled", "ok", "East",
        "/v1/projects/0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a/health", "/v1/portfolios?region=east", "/v1/portfolios",
        "/v1/api-keys/0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a/suspend", "/probe", "81", "fine", "200",
    ]

    program = tmp_path / "typed.py"
    program.write_text(TYPED)
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", str(SDK / "pyproject.toml"),
         str(program)],
        cwd=tmp_path, env={**env, "MYPYPATH": str(package)}, capture_output=True, text=True,
    )
    errors = [line for line in checked.stdout.splitlines() if ": error:" in line]
    assert [e.split(":")[1] for e in errors] == ["9", "10"], checked.stdout
    assert 'Unexpected keyword argument "regoin"' in errors[0]
    assert 'No overload variant of "create" of "PortfoliosResource" matches argument type "int"' in errors[1]


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("java") is None, reason="needs node and java")
def test_a_clash_in_the_tree_fails_generation(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.json"
    clash = ADD_OPERATIONS.replace("'x-sdk': { method: 'suspend' }", "'x-sdk': { resource: 'apiKeys', method: 'list' }")
    subprocess.run(["node", "--input-type=module", "-e", clash, str(spec)], cwd=REPO, check=True)
    generated = subprocess.run(
        ["bash", "scripts/generate-sdk-python.sh", str(tmp_path / "out")],
        cwd=REPO, env={**os.environ, "MERIDIAN_SPEC": str(spec)}, capture_output=True, text=True,
    )
    assert generated.returncode != 0
    assert "apiKeys.list is already listApiKeys's name" in generated.stderr, generated.stderr


def test_every_operation_of_the_spec_is_a_method_of_the_tree(client: meridian.Meridian) -> None:
    """Each operation of the contract (the webhook events aside: the server sends those) is a method of the tree on
    both clients and under ``with_raw_response``; the async client's are coroutine functions, its lists return an
    ``AsyncPaginator`` without ``await``."""
    spec = json.loads(subprocess.run(
        ["node", "--input-type=module", "-e",
         "import { readFileSync } from 'node:fs'; import { parse } from 'yaml';"
         "process.stdout.write(JSON.stringify(parse(readFileSync('generated/openapi.yaml', 'utf8'))))"],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout)
    # Operations with `x-sdk: false` (the console's sign-in) are documented, never wrapped.
    ids = [op["operationId"] for item in spec["paths"].values() for method, op in item.items()
           if method in ("get", "post", "put", "patch", "delete") and op.get("x-sdk") is not False]
    assert sorted(RESOURCE_METHODS) == sorted(ids) and len(set(RESOURCE_METHODS.values())) == len(ids)
    async_client = meridian.AsyncMeridian(api_key="mk_live_x")
    for operation_id, where in RESOURCE_METHODS.items():
        *path, name = where.split(".")
        for root in (client, async_client):
            resource = root
            for part in path:
                resource = getattr(resource, part)
            for target in (resource, resource.with_raw_response):
                method = getattr(target, name, None)
                assert callable(method), f"{operation_id}: client.{where}"
        lists = spec_is_list(spec, operation_id)
        assert inspect.iscoroutinefunction(getattr(resource, name)) is not lists, where
    assert RESOURCE_METHODS["rotateWebhookSecret"] == "webhooks.rotate_secret"
    assert RESOURCE_METHODS["listProjectStatusReports"] == "projects.status_reports.list"


def spec_is_list(spec: dict[str, object], operation_id: str) -> bool:
    """Whether the operation pages (takes ``limit`` and ``offset``): its method returns a page, not a coroutine."""
    paths = spec["paths"]
    assert isinstance(paths, dict)
    for item in paths.values():
        for op in item.values():
            if isinstance(op, dict) and op.get("operationId") == operation_id:
                refs = {p.get("$ref", "").rsplit("/", 1)[-1] for p in op.get("parameters", [])}
                return {"Limit", "Offset"} <= refs
    raise AssertionError(operation_id)
