"""Renders ``resources.py``: one ``Operation`` per operation, and per resource of the tree four classes — for
``Meridian`` (``ProjectsResource``) and ``AsyncMeridian`` (``AsyncProjectsResource``), each with a twin under
``with_raw_response`` that returns the ``APIResponse`` — and the clients' bases holding the top-level resources."""

from __future__ import annotations

from typing import Dict, List, Tuple

from .operations import Arg, Op
from .schema_types import Types
from .text import BANNER, docstring, pascal, wrap

OPTION_DECLARATIONS = [
    "extra_headers: Optional[Mapping[str, str]] = None",
    "timeout: Optional[Timeout] = None",
    "max_retries: Optional[int] = None",
]
OPTION_DOCS = [
    ("extra_headers", "headers added to this request (merged over the client's)."),
    ("timeout", "seconds this request's attempts may take (default: the client's ``timeout``)."),
    ("max_retries", "retries after the first attempt for this request (default: the client's)."),
]


class Node:
    """A resource of the tree: its operations and its sub-resources."""

    def __init__(self, path: List[str]) -> None:
        self.path = path
        self.ops: List[Op] = []
        self.children: Dict[str, Node] = {}

    def cls(self, is_async: bool, raw: bool) -> str:
        name = "".join(pascal(p) for p in self.path) + "Resource"
        return ("Async" if is_async else "") + name + ("WithRawResponse" if raw else "")

    def listing(self) -> str:
        return ", ".join([f"``{o.name}``" for o in self.ops] + [f"``{c}``" for c in self.children])


def build_tree(ops: List[Op]) -> Node:
    root = Node([])
    for op in ops:
        node = root
        for part in op.resource:
            node = node.children.setdefault(part, Node([*node.path, part]))
        node.ops.append(op)
    return root


def _returns(op: Op, is_async: bool, raw: bool) -> str:
    if op.page_item:
        page = f"{'AsyncPage' if is_async else 'SyncPage'}[{op.page_item}]"
        return f"APIResponse[{page}]" if raw else (f"AsyncPaginator[{op.page_item}]" if is_async else page)
    data = op.response or "None"
    return f"APIResponse[{data}]" if raw else data


def _doc(op: Op, client: str, is_async: bool, raw: bool) -> str:
    where = f"{client}.{'.'.join(op.resource)}.{op.name}"
    if raw:
        return f"As ``{where}``, returning the ``APIResponse`` (``status_code``, ``headers``, ``request_id``) " \
               "around its data (``.data`` or ``.parse()``)."
    lines = [op.summary, "", *op.description.split("\n"), "",
             f"``{op.method} {op.path}`` (operationId ``{op.id}``, scope ``{op.scope}``).", ""]
    for arg in op.path_args:
        lines += wrap(arg.doc or f"the ``{arg.wire}`` path parameter.", prefix=f":param {arg.name}: ")
    if op.body_model:
        lines += wrap(f"the request body as a ``meridian.models.{op.body_model}`` or a dict of its fields "
                      f"(``{op.body_param}``), or its fields as the keyword arguments below.", prefix=":param body: ")
    for arg in [*op.body_fields, *op.args]:
        lines += wrap(arg.doc or f"the ``{arg.wire}`` {arg.location} parameter.", prefix=f":param {arg.name}: ")
    for name, text in OPTION_DOCS:
        lines += wrap(text, prefix=f":param {name}: ")
    if op.page_item:
        returned = f"the first page of ``{op.page_item}`` records; iterating it ({'``async for``' if is_async else '``for``'}) " \
                   "fetches every following page."
    else:
        returned = f"the parsed ``{op.response}``." if op.response else "nothing (204 No Content)."
    lines += wrap(returned, prefix=":returns: ")
    lines += wrap("an argument breaks the spec's constraints; nothing was sent.", prefix=":raises RequestValidationError: ")
    lines += wrap("a non-2xx answer, as the subclass for its status (``NotFoundError``, ``ConflictError`` …), after "
                  "the retries the policy allows.", prefix=":raises APIStatusError: ")
    lines += wrap("no answer (``APITimeoutError`` when the last attempt timed out).", prefix=":raises APIConnectionError: ")
    return "\n".join(lines)


def _signature(name: str, params: List[str], returns: str, is_def_async: bool, overload: bool) -> str:
    head = "    @overload\n" if overload else ""
    body = "".join(f"        {p},\n" for p in params)
    return f"{head}    {'async def' if is_def_async else 'def'} {name}(\n        self,\n{body}    ) -> {returns}:"


def _positional(args: List[Arg], extra: List[str]) -> List[str]:
    declared = [f"{a.name}: {a.signature}" for a in args] + extra
    return [*declared, "/"] if declared else []


def method(op: Op, is_async: bool, raw: bool) -> str:
    """One method of a resource class (two overloads and the implementation when the operation has a body)."""
    client = "AsyncMeridian()" if is_async else "client"
    returns = _returns(op, is_async, raw)
    is_def_async = is_async and not (op.page_item and not raw)
    path = "(" + "".join(f"{a.name}, " for a in op.path_args).rstrip(", ") + ("," if len(op.path_args) == 1 else "") + ")"
    doc = docstring(_doc(op, client, is_async, raw), "        ")
    if op.page_item:
        verb = "page_response" if raw else "page"
        target = f"self._client.{verb}({op.constant}, {op.page_item}, {path}, {{kwargs}})"
    else:
        target = f"self._client.call({op.constant}, {path}, {{body}}, {{kwargs}})"
    awaited = f"await {target}" if is_def_async else target
    if op.page_item or raw:
        statement = f"return {awaited}"
    elif op.response:
        statement = f"return ({awaited}).data" if is_def_async else f"return {awaited}.data"
    else:
        statement = awaited
    keyword = [a.declaration() for a in op.args] + OPTION_DECLARATIONS
    if op.body_model is None:
        params = _positional(op.path_args, []) + ["*", *keyword]
        kwargs = "{" + ", ".join(f'"{n}": {n}' for n in [a.name for a in op.args] +
                                 ["extra_headers", "timeout", "max_retries"]) + "}"
        call = statement.replace("{kwargs}", kwargs).replace("{body}", "None")
        return f"\n{_signature(op.name, params, returns, is_def_async, False)}\n{doc}        {call}\n"
    with_model = _positional(op.path_args, [f"body: Union[{op.body_model}, {op.body_param}]"]) + ["*", *keyword]
    with_fields = _positional(op.path_args, []) + ["*", *[a.declaration() for a in op.body_fields], *keyword]
    # The implementation takes the path arguments and the body by position without `/`: mypy refuses a positional-only
    # implementation of keyword-only overloads. A body field never shares a path argument's name (operations.py).
    implementation = [f"{a.name}: {a.signature}" for a in op.path_args] + \
        [f"body: Union[{op.body_model}, {op.body_param}, None] = None", "**kwargs: Any"]
    call = statement.replace("{kwargs}", "kwargs").replace("{body}", "body")
    return "".join([
        f"\n{_signature(op.name, with_model, returns, is_def_async, True)} ...\n",
        f"\n{_signature(op.name, with_fields, returns, is_def_async, True)} ...\n",
        f"\n{_signature(op.name, implementation, returns, is_def_async, False)}\n{doc}        {call}\n",
    ])


def _descriptor(op: Op) -> str:
    params: List[str] = []
    for arg in [*op.path_args, *op.args]:
        required = arg.required or arg.location == "path"
        runtime = arg.runtime if required else f"Optional[{arg.runtime}]"
        params.append(f"Param({arg.name!r}, {arg.wire!r}, {arg.location!r}, {runtime}, required={required})")
    listed = "(\n" + "".join(f"        {p},\n" for p in params) + "    )" if params else "()"
    return (f"\n{op.constant}: Operation[{op.response or 'None'}] = Operation(\n    {op.id!r},\n    {op.method!r},\n"
            f"    {op.path!r},\n    {listed},\n    body={op.body_model or 'None'},\n    response={op.response or 'None'},\n"
            + (f"    server={op.server!r},\n" if op.server else "") + ")\n")


def _classes(node: Node, tag_docs: Dict[str, str], out: List[str]) -> None:
    for child in node.children.values():
        _classes(child, tag_docs, out)
    if not node.path:
        return
    for is_async in (False, True):
        for raw in (True, False):
            base = "AsyncAPIResource" if is_async else "SyncAPIResource"
            client = "AsyncMeridian()" if is_async else "client"
            where = f"{client}.{'.'.join(node.path)}"
            first = f"``{where}{'.with_raw_response' if raw else ''}``: {node.listing()}."
            tag = node.ops[0].tag if node.ops else ""
            extra = ["", *wrap(tag_docs[tag], subsequent="")] if tag in tag_docs and not raw else []
            lines = [f"\n\nclass {node.cls(is_async, raw)}({base}):\n",
                     docstring("\n".join([*wrap(first, subsequent=""), *extra]), "    ")]
            for name, child in node.children.items():
                lines.append(f"\n    @cached_property\n    def {name}(self) -> {child.cls(is_async, raw)}:\n")
                lines.append(docstring(f"``{where}.{name}``: {child.listing()}.", "        "))
                lines.append(f"        return {child.cls(is_async, raw)}(self._client)\n")
            if not raw:
                lines.append(f"\n    @cached_property\n    def with_raw_response(self) -> {node.cls(is_async, True)}:\n")
                lines.append(docstring("These methods, each returning the ``APIResponse`` (status, headers, request "
                                       "id) around the data.", "        "))
                lines.append(f"        return {node.cls(is_async, True)}(self._client)\n")
            lines += [method(op, is_async, raw) for op in node.ops]
            out.append("".join(lines))


def render(types: Types, ops: List[Op], tag_docs: Dict[str, str]) -> Tuple[str, List[str]]:
    """``resources.py``'s source, and the TypedDicts it imports from ``params.py``."""
    tree = build_tree(ops)
    body: List[str] = ["\n# One descriptor per operation: what the client validates, where each argument goes, which "
                       "models.\n"]
    body += [_descriptor(op) for op in ops]
    _classes(tree, tag_docs, body)
    for is_async in (False, True):
        cls = "AsyncResourcesClient" if is_async else "SyncResourcesClient"
        base = "AsyncAPIClient" if is_async else "SyncAPIClient"
        body.append(f"\n\nclass {cls}({base}):\n")
        body.append(docstring("The resource tree's roots, one attribute per top-level resource of the API (base of "
                              f"``{'AsyncMeridian' if is_async else 'Meridian'}``).", "    "))
        for name, child in tree.children.items():
            body.append(f"\n    @cached_property\n    def {name}(self) -> {child.cls(is_async, False)}:\n")
            body.append(docstring(f"``client.{name}``: {child.listing()}.", "        "))
            body.append(f"        return {child.cls(is_async, False)}(self)\n")
    body.append("\n\nRESOURCE_METHODS = {\n" + "".join(
        f"    {op.id!r}: {'.'.join([*op.resource, op.name])!r},\n" for op in ops) + "}\n")
    body.append('"""Where each operation of the spec sits in the tree, by operationId (``listProjects`` → '
                '``projects.list``)."""\n')
    typed = sorted(n for n in types.typed_dicts)
    header = [BANNER.format(what="The API's resource tree, typed from the spec, for ``Meridian`` and ``AsyncMeridian``."),
              "\n# ruff: noqa: E501\nfrom __future__ import annotations\n\n",
              "from datetime import date, datetime\nfrom functools import cached_property\n",
              "from typing import Any, List, Literal, Mapping, Optional, Sequence, Union, overload\n",
              "from uuid import UUID\n\nfrom pydantic import Field\nfrom typing_extensions import Annotated\n\n",
              "from meridian._base_client import AsyncAPIClient, AsyncAPIResource, SyncAPIClient, SyncAPIResource\n",
              "from meridian._operation import Operation, Param\n",
              "from meridian._pagination import AsyncPage, AsyncPaginator, SyncPage\n",
              "from meridian._response import APIResponse\n",
              "from meridian._types import NOT_GIVEN, NotGiven, Timeout\n"]
    header += [f"from meridian._generated.models.{types.models[m]} import {m}\n" for m in sorted(types.used_models)]
    if typed:
        header.append("from meridian._generated.params import " + ", ".join(typed) + "\n")
    return "".join(header) + "".join(body), typed
