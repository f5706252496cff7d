"""Emits the Python SDK's resource tree and typed methods from the OpenAPI document, in the same generation step as
openapi-generator's models (scripts/generate-sdk-python.sh runs both, in this order). One generator of the SDK's
surface: the methods name the models by the names openapi-generator gave them (read from its index, so a model
that is not there fails generation), and the tree's names come from the spec's ``x-sdk`` as
scripts/sdk-python-spec.ts resolved them with the derivation the TypeScript SDK uses (scripts/sdk-tree.ts).

Writes, beside ``models/``:

- ``resources.py``: one ``Operation`` per operation; per resource of the tree a class for ``Meridian`` and one for
  ``AsyncMeridian``, each with its ``with_raw_response`` twin; the clients' bases (``SyncResourcesClient``,
  ``AsyncResourcesClient``) and ``RESOURCE_METHODS``;
- ``params.py``: the TypedDicts of nested body objects;
- ``webhook_events.py``: the event payload models of the spec's ``webhooks`` section and their union;
- ``__init__.py``: every model, re-exported (``meridian.models`` re-exports this);
- ``version.py``: the SDK's version.

Nothing here knows an operation, a resource or an event by name: a new one in the spec reaches both clients on the
next ``npm run generate``. The output depends only on the spec, in the spec's order. Standard library only.

Usage: python3 sdk-python/scripts/generate_operations.py <spec.json> <meridian/_generated dir>
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sdkgen import render_misc, render_resources  # noqa: E402
from sdkgen.operations import read_operations  # noqa: E402
from sdkgen.schema_types import Types  # noqa: E402
from sdkgen.text import one_line  # noqa: E402


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit("usage: generate_operations.py <spec.json> <meridian/_generated dir>")
    spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    out = Path(sys.argv[2])
    index = (out / "models" / "__init__.py").read_text(encoding="utf-8")
    models = {cls: module for module, cls in
              re.findall(r"^from meridian\._generated\.models\.(\w+) import (\w+)$", index, re.M)}
    types = Types(spec, models)
    tag_docs = {t["name"]: one_line(t.get("description")) for t in spec.get("tags", []) if t.get("description")}
    resources, _ = render_resources.render(types, read_operations(types), tag_docs)
    (out / "resources.py").write_text(resources, encoding="utf-8")
    (out / "params.py").write_text(render_misc.params(types), encoding="utf-8")
    (out / "webhook_events.py").write_text(render_misc.webhook_events(types), encoding="utf-8")
    (out / "__init__.py").write_text(render_misc.index(models), encoding="utf-8")
    (out / "version.py").write_text(render_misc.version(spec), encoding="utf-8")


if __name__ == "__main__":
    main()
