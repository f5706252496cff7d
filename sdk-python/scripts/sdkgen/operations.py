"""The operations of the spec as the Python SDK's methods see them: where each sits in the resource tree (its
``x-sdk``, written by scripts/sdk-python-spec.ts from the tree both SDKs share), its path arguments, its query and
header parameters, its body's fields and models, and its page's record type."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from .schema_types import Types
from .text import one_line, pascal, snake

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
OPTIONS = ("extra_headers", "timeout", "max_retries")
"""Keyword arguments every method takes for itself: no parameter or body field may be named so."""


@dataclass
class Arg:
    """A keyword argument of a method: a query or header parameter, or a field of the body."""

    name: str
    wire: str
    location: str  # "query", "header" or "body"
    signature: str  # the annotation, None aside
    required: bool
    nullable: bool = False
    runtime: str = ""  # what pydantic validates a parameter against
    doc: str = ""

    def declaration(self) -> str:
        """``name: annotation [= default]`` in a method's signature."""
        if self.location != "body":
            return f"{self.name}: {self.signature}" if self.required else f"{self.name}: Optional[{self.signature}] = None"
        annotation = f"Optional[{self.signature}]" if self.nullable else self.signature
        return f"{self.name}: {annotation}" if self.required else f"{self.name}: Union[{annotation}, NotGiven] = NOT_GIVEN"


@dataclass
class Op:
    """One operation, ready to render."""

    id: str
    method: str
    path: str
    resource: List[str]  # snake_case attribute names from the client
    name: str  # the method's snake_case name
    path_args: List[Arg]
    args: List[Arg]  # query and header parameters
    body_fields: List[Arg] = field(default_factory=list)
    body_model: Optional[str] = None
    body_param: Optional[str] = None  # the TypedDict of the body's fields
    body_required: bool = False
    response: Optional[str] = None
    page_item: Optional[str] = None
    summary: str = ""
    description: str = ""
    scope: str = ""
    tag: str = ""
    server: Optional[str] = None  # the operation's own server URL, when the spec gives one

    @property
    def constant(self) -> str:
        return "_" + snake(self.id).upper()


def read_operations(types: Types) -> List[Op]:
    """Every operation of ``paths``, in the spec's order."""
    ops: List[Op] = []
    for path, item in types.spec.get("paths", {}).items():
        for method in METHODS:
            raw = item.get(method)
            if raw is None:
                continue
            sdk = raw.get("x-sdk") or {}
            if "pathArgs" not in sdk:
                raise SystemExit(f"generate_operations: {method.upper()} {path} has no resolved x-sdk (run through "
                                 "scripts/sdk-python-spec.ts)")
            params: Dict[Any, Dict[str, Any]] = {}
            for p in [*item.get("parameters", []), *raw.get("parameters", [])]:
                p = types.deref(p, "parameters")
                params[(p["in"], p["name"])] = p  # operation-level parameters override path-level ones
            op = Op(raw["operationId"], method.upper(), path, [snake(r) for r in sdk["resource"]], snake(sdk["method"]),
                    [], [], summary=one_line(raw.get("summary")) or raw["operationId"],
                    description=(raw.get("description") or "").strip(), scope=raw.get("x-required-scope", ""),
                    tag=(raw.get("tags") or [""])[0])
            # An operation served outside the document's base path (e.g. `servers: [{url: /}]` for a health
            # check) keeps its own server URL, resolved against the client's base URL at run time.
            servers = raw.get("servers") or item.get("servers") or []
            op.server = servers[0]["url"] if servers else None
            path_params = sorted((p for p in params.values() if p["in"] == "path"),
                                 key=lambda p: path.index("{" + p["name"] + "}"))
            for p, py in zip(path_params, sdk["pathArgs"]):
                runtime, signature = types.param_types(p.get("schema", {}))
                op.path_args.append(Arg(snake(py), p["name"], "path", signature, True, runtime=runtime,
                                        doc=one_line(p.get("description"))))
            for p in params.values():
                if p["in"] not in ("query", "header"):
                    continue
                runtime, signature = types.param_types(p.get("schema", {}))
                op.args.append(Arg(snake(p["name"]), p["name"], p["in"], signature, bool(p.get("required")),
                                   runtime=runtime, doc=one_line(p.get("description"))))
            _body(types, op, raw)
            _response(types, op, raw)
            names = [a.name for a in [*op.path_args, *op.args, *op.body_fields]] + ["body"]
            clash = next((n for n in names if names.count(n) > 1 or n in OPTIONS), None)
            if clash:
                raise SystemExit(f"generate_operations: {op.id}: argument {clash!r} is taken twice")
            ops.append(op)
    return ops


def _body(types: Types, op: Op, raw: Dict[str, Any]) -> None:
    body = raw.get("requestBody")
    if body is None:
        return
    body = types.deref(body, "requestBodies")
    schema = body.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        raise SystemExit(f"generate_operations: {op.id} has a body that is not application/json")
    name = schema["$ref"].rsplit("/", 1)[-1] if "$ref" in schema else f"{pascal(op.id)}Request"
    op.body_model = types.model(name)
    op.body_required = bool(body.get("required"))
    target = types.deref(schema, "schemas")
    op.body_param = types.typed_dict(name, target)
    required = set(target.get("required", []))
    for prop, sub in target.get("properties", {}).items():
        op.body_fields.append(Arg(snake(prop), prop, "body", types.input_type(sub, name, prop), prop in required,
                                  nullable=types.nullable(sub)[1], doc=_describe(types, sub)))
    # Required fields first: a keyword-only argument without a default may follow one with a default, but
    # reads better first.
    op.body_fields.sort(key=lambda a: not a.required)


def _describe(types: Types, schema: Dict[str, Any]) -> str:
    """A field's description, else its schema's (an enum's, for a field that only refers to one)."""
    own = one_line(schema.get("description"))
    if own:
        return own
    inner, _ = types.nullable(schema)
    return one_line(types.deref(inner, "schemas").get("description")) if "$ref" in inner else ""


def _response(types: Types, op: Op, raw: Dict[str, Any]) -> None:
    for status, response in raw.get("responses", {}).items():
        if not status.startswith("2"):
            continue
        response = types.deref(response, "responses")
        schema = response.get("content", {}).get("application/json", {}).get("schema")
        if schema is None:
            continue
        # openapi-generator names an inline response schema <OperationId><status>Response.
        op.response = types.model(schema["$ref"].rsplit("/", 1)[-1] if "$ref" in schema
                                  else f"{pascal(op.id)}{status}Response")
        target = types.deref(schema, "schemas")
        names = {a.wire for a in op.args}
        items = target.get("properties", {}).get("data", {}).get("items", {})
        if "limit" in names and "offset" in names and "$ref" in items:
            op.page_item = types.model(items["$ref"].rsplit("/", 1)[-1])
        return
