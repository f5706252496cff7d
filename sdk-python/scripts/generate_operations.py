"""Emits the Python SDK's typed operation layer from the OpenAPI document (the counterpart of
sdk-ts/scripts/generate-operations.ts).

openapi-generator writes the models (``meridian/_generated/models/``); this script writes, beside them:

- ``resources.py``: one ``Operation`` per operation of ``paths`` (method, path, parameters with the spec's constraints,
  request and response models) and, per tag, a resource class for ``Meridian`` (``ProjectsResource``) and one for
  ``AsyncMeridian`` (``AsyncProjectsResource``), with a method per operation (``list_projects``) and its
  ``…_with_response`` twin; plus ``SyncResourcesClient`` / ``AsyncResourcesClient``, the clients' bases, with one
  attribute per tag (``client.projects``);
- ``webhook_events.py``: the event payload models of the spec's ``webhooks`` section, keyed by event name, and their
  union;
- ``__init__.py``: every model, re-exported with ``__all__`` (``meridian.models`` re-exports this).

Nothing here knows an operation, a tag or an event by name: a new one in the spec reaches both clients on the next
``npm run generate``. The output depends only on the spec, in the spec's order, so it is deterministic. Standard
library only.

Usage: python3 sdk-python/scripts/generate_operations.py <spec.json> <meridian/_generated dir>
"""

from __future__ import annotations

import json
import keyword
import re
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
RESERVED = {"self", "body", "extra_headers", "timeout", "max_retries"}
BANNER = (
    '"""{what}\n\n'
    "Generated from spec/openapi.yaml by sdk-python/scripts/generate_operations.py. Do not edit: change the spec and\n"
    'run `npm run generate`.\n"""\n'
)


def snake(name: str) -> str:
    """``listApiKeys`` → ``list_api_keys``, ``If-None-Match`` → ``if_none_match``, ``API Keys`` → ``api_keys``."""
    name = re.sub(r"[^0-9A-Za-z]+", "_", name)
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    name = re.sub(r"(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    name = name.strip("_").lower()
    return name + "_" if keyword.iskeyword(name) or name in ("self",) else name


def pascal(name: str) -> str:
    """``API Keys`` → ``ApiKeys``, ``getProjectHealth`` → ``GetProjectHealth``."""
    return "".join(part[:1].upper() + part[1:].lower() if part.isupper() else part[:1].upper() + part[1:]
                   for part in re.split(r"[^0-9A-Za-z]+", name) if part)


def one_line(text: Optional[str]) -> str:
    return " ".join((text or "").split())


def docstring(text: str, indent: str) -> str:
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').rstrip()
    lines = [f"{indent}{line}".rstrip() for line in text.split("\n")]
    lines[0] = lines[0].lstrip()
    return f'{indent}"""{lines[0]}\n' + "\n".join(lines[1:]) + f'\n{indent}"""\n' if len(lines) > 1 else \
        f'{indent}"""{lines[0]}"""\n'


def wrap(text: str, width: int = 110, prefix: str = "", subsequent: str = "    ") -> List[str]:
    return textwrap.wrap(text, width=width, initial_indent=prefix, subsequent_indent=subsequent,
                         break_long_words=False, break_on_hyphens=False) or [prefix]


class Generator:
    def __init__(self, spec: Dict[str, Any], models: Dict[str, str]) -> None:
        self.spec = spec
        self.models = models  # class name -> module name under models/
        self.schemas: Dict[str, Any] = spec.get("components", {}).get("schemas", {})
        self.used_models: set[str] = set()
        self.typing_needs: set[str] = set()

    # --- references -------------------------------------------------------------------------------------------
    def deref(self, value: Dict[str, Any], kind: str) -> Dict[str, Any]:
        ref = value.get("$ref")
        if not ref:
            return value
        prefix = f"#/components/{kind}/"
        if not ref.startswith(prefix):
            raise SystemExit(f"generate_operations: unsupported $ref {ref}")
        target = self.spec.get("components", {}).get(kind, {}).get(ref[len(prefix):])
        if target is None:
            raise SystemExit(f"generate_operations: unresolved $ref {ref}")
        return self.deref(target, kind)

    def model(self, name: str) -> str:
        if name not in self.models:
            raise SystemExit(f"generate_operations: openapi-generator wrote no model {name}")
        self.used_models.add(name)
        return name

    # --- parameter types --------------------------------------------------------------------------------------
    def param_types(self, schema: Dict[str, Any]) -> Tuple[str, str]:
        """(annotation pydantic validates against, annotation of the method's signature) for a parameter schema."""
        ref = schema.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            target = self.schemas.get(name, {})
            cls = self.model(name)
            if "enum" in target:
                literals = ", ".join(json.dumps(v) for v in target["enum"])
                return cls, f"Union[{cls}, Literal[{literals}]]"
            return cls, cls
        kind = schema.get("type")
        if isinstance(kind, list):
            kinds = [k for k in kind if k != "null"]
            kind = kinds[0] if len(kinds) == 1 else None
        if "enum" in schema:
            literals = ", ".join(json.dumps(v) for v in schema["enum"])
            return f"Literal[{literals}]", f"Literal[{literals}]"
        constraints: List[str] = []
        if kind == "string":
            fmt = schema.get("format")
            if fmt == "uuid":
                return "UUID", "Union[UUID, str]"
            if fmt == "date":
                return "date", "Union[date, str]"
            if fmt == "date-time":
                return "datetime", "Union[datetime, str]"
            for key, arg in (("minLength", "min_length"), ("maxLength", "max_length"), ("pattern", "pattern")):
                if key in schema:
                    constraints.append(f"{arg}={schema[key]!r}")
            return self.annotated("str", constraints), "str"
        if kind in ("integer", "number"):
            for key, arg in (("minimum", "ge"), ("maximum", "le"), ("exclusiveMinimum", "gt"),
                             ("exclusiveMaximum", "lt")):
                if key in schema and not isinstance(schema[key], bool):
                    constraints.append(f"{arg}={schema[key]!r}")
            return (self.annotated("int", constraints), "int") if kind == "integer" else \
                (self.annotated("float", constraints, strict=False), "float")
        if kind == "boolean":
            return self.annotated("bool", []), "bool"
        if kind == "array":
            runtime, signature = self.param_types(schema.get("items", {}))
            return f"List[{runtime}]", f"Sequence[{signature}]"
        raise SystemExit(f"generate_operations: unsupported parameter schema {json.dumps(schema)}")

    @staticmethod
    def annotated(base: str, constraints: List[str], strict: bool = True) -> str:
        args = (["strict=True"] if strict else []) + constraints
        return f"Annotated[{base}, Field({', '.join(args)})]"

    # --- operations -------------------------------------------------------------------------------------------
    def operations(self) -> List[Dict[str, Any]]:
        result: List[Dict[str, Any]] = []
        seen: set[str] = set()
        for path, item in self.spec.get("paths", {}).items():
            shared = item.get("parameters", [])
            for method in METHODS:
                op = item.get(method)
                if op is None:
                    continue
                operation_id = op.get("operationId")
                if not operation_id:
                    raise SystemExit(f"generate_operations: {method.upper()} {path} has no operationId")
                name = snake(operation_id)
                if name in seen:
                    raise SystemExit(f"generate_operations: two operations named {name}")
                seen.add(name)
                params: Dict[Tuple[str, str], Dict[str, Any]] = {}
                for raw in [*shared, *op.get("parameters", [])]:
                    param = self.deref(raw, "parameters")
                    params[(param["in"], param["name"])] = param  # operation-level parameters override path-level
                # An operation served outside the document's base path (e.g. `servers: [{url: /}]` for a health
                # check) keeps its own server URL, resolved against the client's base URL at run time.
                servers = op.get("servers") or item.get("servers") or []
                result.append({
                    "id": operation_id, "name": name, "method": method.upper(), "path": path, "op": op,
                    "server": servers[0]["url"] if servers else None,
                    "tag": (op.get("tags") or ["Default"])[0],
                    "params": [p for p in params.values() if p["in"] in ("path", "query", "header")],
                })
        return result

    def response_model(self, op: Dict[str, Any]) -> Optional[str]:
        for status, response in op["op"].get("responses", {}).items():
            if not status.startswith("2"):
                continue
            response = self.deref(response, "responses")
            schema = response.get("content", {}).get("application/json", {}).get("schema")
            if schema is None:
                continue
            if "$ref" in schema:
                return self.model(schema["$ref"].rsplit("/", 1)[-1])
            # openapi-generator names an inline response schema <OperationId><status>Response.
            return self.model(f"{pascal(op['id'])}{status}Response")
        return None

    def body_model(self, op: Dict[str, Any]) -> Optional[Tuple[str, bool]]:
        body = op["op"].get("requestBody")
        if body is None:
            return None
        body = self.deref(body, "requestBodies")
        schema = body.get("content", {}).get("application/json", {}).get("schema")
        if schema is None:
            raise SystemExit(f"generate_operations: {op['id']} has a body that is not application/json")
        name = schema["$ref"].rsplit("/", 1)[-1] if "$ref" in schema else f"{pascal(op['id'])}Request"
        return self.model(name), bool(body.get("required"))

    def render_operation(self, op: Dict[str, Any]) -> Dict[str, Any]:
        """Everything the resource methods of one operation need."""
        response = self.response_model(op)
        body = self.body_model(op)
        positional: List[str] = []
        keyword_only: List[str] = []
        args: List[str] = []
        param_specs: List[str] = []
        param_docs: List[Tuple[str, str]] = []
        order = {"path": 0, "query": 1, "header": 2}
        for param in sorted(op["params"], key=lambda p: order[p["in"]]):
            py = snake(param["name"])
            if py in RESERVED:
                raise SystemExit(f"generate_operations: {op['id']} parameter {param['name']} clashes with {py}")
            required = bool(param.get("required")) or param["in"] == "path"
            runtime, signature = self.param_types(param.get("schema", {}))
            if not required:
                runtime, signature = f"Optional[{runtime}]", f"Optional[{signature}]"
            param_specs.append(
                f"Param({py!r}, {param['name']!r}, {param['in']!r}, {runtime}, required={required})"
            )
            declaration = f"{py}: {signature}" + ("" if required else " = None")
            (positional if param["in"] == "path" else keyword_only).append(declaration)
            args.append(py)
            param_docs.append((py, one_line(param.get("description")) or f"the `{param['name']}` {param['in']} "
                                                                              "parameter."))
        if body is not None:
            model, required = body
            positional.append(f"body: {model}" if required else f"body: Optional[{model}] = None")
            param_docs.insert(len([p for p in op["params"] if p["in"] == "path"]),
                              ("body", f"the request body, a ``meridian.models.{model}``."))
        # Required keyword-only parameters (e.g. a required query parameter) come before optional ones.
        keyword_only.sort(key=lambda d: " = None" in d)
        summary = one_line(op["op"].get("summary")) or op["id"]
        description = (op["op"].get("description") or "").strip()
        return {
            **op, "response": response, "body": body, "positional": positional, "keyword_only": keyword_only,
            "args": args, "param_specs": param_specs, "param_docs": param_docs, "summary": summary,
            "description": description,
        }

    # --- resources.py -----------------------------------------------------------------------------------------
    def resources(self) -> str:
        ops = [self.render_operation(op) for op in self.operations()]
        tags: Dict[str, List[Dict[str, Any]]] = {}
        for tag in self.spec.get("tags", []):
            tags.setdefault(tag["name"], [])
        for op in ops:
            tags.setdefault(op["tag"], []).append(op)
        tag_docs = {t["name"]: one_line(t.get("description")) for t in self.spec.get("tags", [])}

        out: List[str] = [BANNER.format(what="The API's operations, typed from the spec, for ``Meridian`` and "
                                             "``AsyncMeridian``.")]
        out.append("\n# ruff: noqa: E501\nfrom __future__ import annotations\n\n")
        out.append("from datetime import date, datetime\n")
        out.append("from functools import cached_property\n")
        out.append("from typing import List, Literal, Mapping, Optional, Sequence, Union\n")
        out.append("from uuid import UUID\n\n")
        out.append("from pydantic import Field\n")
        out.append("from typing_extensions import Annotated\n\n")
        out.append("from meridian._base_client import (\n    APIResponse,\n    AsyncAPIClient,\n    AsyncAPIResource,\n"
                   "    Operation,\n    Param,\n    SyncAPIClient,\n    SyncAPIResource,\n    Timeout,\n)\n")
        body: List[str] = []

        # Operation descriptors.
        body.append("\n# One descriptor per operation: what the client validates, where each argument goes, which "
                    "models.\n")
        for op in ops:
            response = op["response"] or "None"
            body.append(f"\n_{op['name'].upper()}: Operation[{response}] = Operation(\n")
            body.append(f"    {op['id']!r},\n    {op['method']!r},\n    {op['path']!r},\n")
            if op["param_specs"]:
                body.append("    (\n" + "".join(f"        {spec},\n" for spec in op["param_specs"]) + "    ),\n")
            else:
                body.append("    (),\n")
            body.append(f"    body={op['body'][0] if op['body'] else 'None'},\n")
            body.append(f"    response={op['response'] or 'None'},\n")
            if op["server"] is not None:
                body.append(f"    server={op['server']!r},\n")
            body.append(")\n")

        for is_async in (False, True):
            for tag, tag_ops in tags.items():
                if not tag_ops:
                    continue
                cls = ("Async" if is_async else "") + pascal(tag) + "Resource"
                base = "AsyncAPIResource" if is_async else "SyncAPIResource"
                client_name = "AsyncMeridian" if is_async else "Meridian"
                body.append(f"\n\nclass {cls}({base}):\n")
                first = f"{tag}: {tag_docs.get(tag) or 'operations tagged ' + tag}"
                second = f"``{client_name}().{snake(tag)}``: one method per operation of the tag, named after its " \
                         "operationId, and a ``…_with_response`` twin returning the ``APIResponse`` (status, headers, " \
                         "request id)."
                doc = [*wrap(first, subsequent=""), "", *wrap(second, subsequent="")]
                body.append(docstring("\n".join(doc), "    "))
                for op in tag_ops:
                    body.append(self.method(op, is_async, with_response=False))
                    body.append(self.method(op, is_async, with_response=True))

        # The clients' bases: one attribute per tag.
        for is_async in (False, True):
            cls = "AsyncResourcesClient" if is_async else "SyncResourcesClient"
            base = "AsyncAPIClient" if is_async else "SyncAPIClient"
            body.append(f"\n\nclass {cls}({base}):\n")
            body.append(docstring("The operations of the API, one attribute per tag of the spec (base of "
                                  f"``{'AsyncMeridian' if is_async else 'Meridian'}``).", "    "))
            for tag, tag_ops in tags.items():
                if not tag_ops:
                    continue
                rcls = ("Async" if is_async else "") + pascal(tag) + "Resource"
                ops_list = ", ".join(f"``{op['name']}``" for op in tag_ops)
                body.append(f"\n    @cached_property\n    def {snake(tag)}(self) -> {rcls}:\n")
                doc = f"{tag}: {ops_list}."
                body.append(docstring("\n".join(wrap(doc, width=108, subsequent="")), "        "))
                body.append(f"        return {rcls}(self)\n")

        imports = "".join(
            f"from meridian._generated.models.{self.models[m]} import {m}\n" for m in sorted(self.used_models)
        )
        return "".join(out) + imports + "".join(body)

    def method(self, op: Dict[str, Any], is_async: bool, with_response: bool) -> str:
        name = op["name"] + ("_with_response" if with_response else "")
        response = op["response"] or "None"
        returns = f"APIResponse[{response}]" if with_response else response
        params = ["self", *op["positional"]]
        params.append("*")
        params.extend(op["keyword_only"])
        params += ["extra_headers: Optional[Mapping[str, str]] = None", "timeout: Optional[Timeout] = None",
                   "max_retries: Optional[int] = None"]
        lines = [f"\n    {'async def' if is_async else 'def'} {name}(\n"]
        lines += [f"        {p},\n" for p in params]
        lines.append(f"    ) -> {returns}:\n")

        if with_response:
            doc_lines = [f"{op['summary']}, returning the whole answer: as ``{op['name']}``, but the result is an",
                         f"``APIResponse`` whose ``data`` is {'the ``' + response + '``' if op['response'] else 'None'}"
                         ", with ``status_code``, ``headers`` and ``request_id``."]
        else:
            doc_lines = [op["summary"], "", *op["description"].split("\n"), "",
                         f"``{op['method']} {op['path']}`` (operationId ``{op['id']}``).", ""]
            for py, text in op["param_docs"]:
                doc_lines += wrap(text, prefix=f":param {py}: ")
            doc_lines += wrap("headers added to this request (merged over the client's).",
                              prefix=":param extra_headers: ")
            doc_lines += wrap("seconds this request's attempts may take (default: the client's ``timeout``).",
                              prefix=":param timeout: ")
            doc_lines += wrap("retries after the first attempt for this request (default: the client's).",
                              prefix=":param max_retries: ")
            doc_lines += wrap(f"the parsed ``{response}`` (``meridian.models.{response}``)." if op["response"]
                              else "nothing (204 No Content).", prefix=":returns: ")
            doc_lines += wrap("an argument breaks the spec's constraints; nothing was sent.",
                              prefix=":raises RequestValidationError: ")
            doc_lines += wrap("a non-2xx answer, as the subclass for its status (``NotFoundError``, "
                              "``ConflictError`` …), after the retries the policy allows.",
                              prefix=":raises APIStatusError: ")
            doc_lines += wrap("no answer (``APITimeoutError`` when the last attempt timed out).",
                              prefix=":raises APIConnectionError: ")
        lines.append(docstring("\n".join(doc_lines), "        "))

        options = "extra_headers=extra_headers, timeout=timeout, max_retries=max_retries"
        positional_names = [p.split(":")[0] for p in op["positional"]]
        if with_response:
            args = ", ".join(f"{a!r}: {a}" for a in op["args"])
            body_arg = "body" if op["body"] else "None"
            call = f"self._client.request(_{op['name'].upper()}, {{{args}}}, {body_arg}, {options})"
            lines.append(f"        return {'await ' if is_async else ''}{call}\n")
        else:
            call_args = [*positional_names, *[f"{a}={a}" for a in op["args"] if a not in positional_names], options]
            call = f"{'await ' if is_async else ''}self.{op['name']}_with_response({', '.join(call_args)})"
            if op["response"]:
                lines.append(f"        return ({call}).data\n" if is_async else f"        return {call}.data\n")
            else:
                lines.append(f"        {call}\n")
        return "".join(lines)

    # --- webhook_events.py ------------------------------------------------------------------------------------
    def webhook_events(self) -> str:
        events: List[Tuple[str, str, str]] = []
        for name, item in self.spec.get("webhooks", {}).items():
            for method in METHODS:
                op = item.get(method)
                if op is None:
                    continue
                body = self.deref(op.get("requestBody", {}), "requestBodies")
                schema = body.get("content", {}).get("application/json", {}).get("schema", {})
                if "$ref" not in schema:
                    raise SystemExit(f"generate_operations: webhook {name} has no payload schema $ref")
                events.append((name, self.model(schema["$ref"].rsplit("/", 1)[-1]), one_line(op.get("summary"))))
        out = [BANNER.format(what="The webhook events of the spec's ``webhooks`` section, typed.")]
        out.append("\nfrom __future__ import annotations\n\nfrom typing import Dict, Literal, Type, Union\n\n")
        out.append("from pydantic import BaseModel\n\n")
        out += [f"from meridian._generated.models.{self.models[m]} import {m}\n"
                for m in sorted({model for _, model, _ in events})]
        out.append("\n__all__ = [\"WEBHOOK_EVENT_MODELS\", \"KnownWebhookEvent\", \"WebhookEventName\"]\n")
        out.append("\nWebhookEventName = Literal[\n" + "".join(f"    {n!r},\n" for n, _, _ in events) + "]\n")
        out.append('"""The name of a webhook event (the payload\'s ``event`` field), e.g. ``"risk.created"``."""\n')
        out.append("\nKnownWebhookEvent = Union[\n" + "".join(f"    {m},\n" for _, m, _ in events) + "]\n")
        out.append('"""Any event payload the spec describes (narrow with ``isinstance``)."""\n')
        out.append("\nWEBHOOK_EVENT_MODELS: Dict[str, Type[BaseModel]] = {\n")
        out += [f"    {n!r}: {m},  # {s}\n" if s else f"    {n!r}: {m},\n" for n, m, s in events]
        out.append("}\n")
        out.append('"""The payload model of each event, by event name."""\n')
        return "".join(out)

    # --- __init__.py ------------------------------------------------------------------------------------------
    def index(self) -> str:
        out = [BANNER.format(what="The API's models (generated by openapi-generator into ``models/``), re-exported; "
                                  "``meridian.models`` is the public name.")]
        out.append("\n")
        out += [f"from meridian._generated.models.{module} import {cls} as {cls}\n"
                for cls, module in sorted(self.models.items())]
        out.append("\n__all__ = [\n" + "".join(f"    {cls!r},\n" for cls in sorted(self.models)) + "]\n")
        return "".join(out)


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit("usage: generate_operations.py <spec.json> <meridian/_generated dir>")
    spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    out = Path(sys.argv[2])
    index = (out / "models" / "__init__.py").read_text(encoding="utf-8")
    models = {cls: module for module, cls in
              re.findall(r"^from meridian\._generated\.models\.(\w+) import (\w+)$", index, re.M)}
    generator = Generator(spec, models)
    (out / "resources.py").write_text(generator.resources(), encoding="utf-8")
    (out / "webhook_events.py").write_text(generator.webhook_events(), encoding="utf-8")
    (out / "__init__.py").write_text(generator.index(), encoding="utf-8")


if __name__ == "__main__":
    main()
