"""A new operation in the spec reaches the SDK through the generator alone (issue 3, "Done means").

Generates the SDK from a copy of spec/openapi.yaml with two extra operations, one under an existing tag
(``getProjectHealth``, tag Projects) and one under a new tag (``listPortfolios``, tag Portfolios), into a temporary
directory with scripts/generate-sdk-python.sh, then calls both through the unchanged hand-written ``meridian.Meridian``
against a real local server: no file of the SDK is edited.
"""

from __future__ import annotations

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
TESTS = Path(__file__).resolve().parent

ADD_OPERATIONS = """
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
const doc = parse(readFileSync('spec/openapi.yaml', 'utf8'));
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
    responses: {
      '200': { description: 'A page.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ProjectList' } } } },
      default: problem,
    },
  },
};
writeFileSync(process.argv[1], JSON.stringify(doc));
"""

CALL_THEM = """
import meridian, meridian_client, sys
from conftest import Reply, ScriptedServer
assert meridian_client.__file__.startswith(sys.argv[1]), meridian_client.__file__
page = {"data": [], "pagination": {"limit": 25, "offset": 0, "total": 0, "hasMore": False}}
with ScriptedServer([Reply(200, {"score": 80, "label": "healthy"}), Reply(200, page)]) as server:
    client = server.client()
    health = client.projects.get_project_health("0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a")
    portfolios = client.portfolios.list_portfolios()
    print(health.score, health.label, portfolios.pagination.total, *[r.path for r in server.requests])
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
    written = sorted(p.name for p in out.iterdir())
    assert written == ["sdk-python"] and sorted(p.name for p in (out / "sdk-python").iterdir()) == ["meridian_client"]

    generated = out / "sdk-python"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(generated), str(TESTS)])}
    result = subprocess.run(
        [sys.executable, "-c", CALL_THEM, str(generated)], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "80", "healthy", "0", "/v1/projects/0194f9a2-6a1e-7c3d-9b2a-1f4e5d6c7b8a/health", "/v1/portfolios",
    ]


def test_every_operation_of_the_spec_is_reachable(client: meridian.Meridian) -> None:
    """Each operation of spec/openapi.yaml (the webhook events aside: the server sends those, clients do not call
    them) is ``client.<tag in snake_case>.<operationId in snake_case>``."""
    spec = json.loads(
        subprocess.run(
            ["node", "--input-type=module", "-e",
             "import { readFileSync } from 'node:fs'; import { parse } from 'yaml';"
             "process.stdout.write(JSON.stringify(parse(readFileSync('spec/openapi.yaml', 'utf8'))))"],
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
    for operation_id, tag in operations:
        group = getattr(client, re.sub(r"\W+", "_", tag).lower())
        method = re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower()
        assert callable(getattr(group, method, None)), f"{operation_id} is not client.{tag}.{method}"
