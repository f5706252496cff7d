"""How the generated resource methods describe an operation to the client, and how their arguments become a request.

Each operation of the spec is described once, in the generated ``meridian/_generated/resources.py``, by an
``Operation``: method, path, the path, query and header parameters (``Param``, with the spec's constraints), the
request body's model and the response's model. ``split_arguments`` turns a method's arguments into the path, the
query string, the headers and the JSON body, checking each against the spec before anything is sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from enum import Enum
from functools import cached_property
from typing import Any, Dict, Generic, List, Literal, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union, get_args, get_origin
from urllib.parse import quote
from uuid import UUID

import pydantic
from pydantic import TypeAdapter

from ._errors import RequestValidationError
from ._types import NotGiven

__all__ = ["Operation", "Param", "RequestParts", "split_arguments", "OPTION_NAMES"]

T = TypeVar("T")

OPTION_NAMES = ("extra_headers", "timeout", "max_retries")
"""The per-call options every method takes, beside the operation's own arguments."""


def _takes_many(annotation: Any) -> bool:
    """Whether a parameter's type is a list (an array parameter, possibly nullable)."""
    origin = get_origin(annotation)
    if origin in (list, List):
        return True
    return origin is Union and any(_takes_many(arg) for arg in get_args(annotation))


@dataclass(frozen=True)
class Param:
    """One path, query or header parameter of an operation, as the spec declares it.

    :param name: the Python argument name (snake_case; ``from_`` for ``from``).
    :param wire_name: the name on the wire (``projectId``, ``If-Match``).
    :param location: ``"path"``, ``"query"`` or ``"header"``.
    :param annotation: the type pydantic validates the value against, with the spec's constraints (``minimum``,
        ``maxLength``, ``format: uuid`` …); a list type for an array parameter, sent as repeated keys.
    :param required: whether the spec requires it.
    """

    name: str
    wire_name: str
    location: Literal["path", "query", "header"]
    annotation: Any
    required: bool = False

    @cached_property
    def _adapter(self) -> TypeAdapter[Any]:
        # Built on first use: the ~50 operations' adapters are not all needed by one program.
        return TypeAdapter(self.annotation)

    def validate(self, value: Any) -> Any:
        """The value checked and converted (``"AT_RISK"`` → ``ProjectStatus.AT_RISK``, a UUID string → ``UUID``).
        A parameter that takes several values also takes one (``status="AT_RISK"`` is ``status=["AT_RISK"]``).

        :raises RequestValidationError: the value breaks the parameter's type or constraints.
        """
        if value is not None and not isinstance(value, (list, tuple)) and _takes_many(self.annotation):
            value = [value]
        try:
            return self._adapter.validate_python(value)
        except pydantic.ValidationError as exc:
            errors = [
                {"location": self.location, "path": self.wire_name, "message": str(error["msg"])}
                for error in exc.errors()
            ]
            detail = "; ".join(e["message"] for e in errors)
            raise RequestValidationError(
                f"invalid {self.location} parameter {self.wire_name!r} ({self.name}={value!r}): {detail}",
                errors=errors,
            ) from exc


@dataclass(frozen=True)
class Operation(Generic[T]):
    """An operation of the spec: what the generated methods pass to the client.

    :param operation_id: the spec's ``operationId`` (``listProjects``).
    :param method: the HTTP method in upper case.
    :param path: the path template below the base URL (``/projects/{id}``).
    :param params: the path parameters (in the path's order), then the query and header parameters.
    :param body: the request body's model class, or ``None`` for operations without a body.
    :param response: the success body's model class, or ``None`` for 204 No Content.
    :param server: the operation's own server URL when the spec gives one (``/`` for an endpoint outside ``/v1``),
        resolved against the client's ``base_url``; ``None`` for the usual ``base_url``.
    """

    operation_id: str
    method: str
    path: str
    params: Tuple[Param, ...] = ()
    body: Optional[Type[Any]] = None
    response: Optional[Type[T]] = None
    server: Optional[str] = None
    names: Dict[str, Param] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", {p.name: p for p in self.params if p.location != "path"})


def serialize(value: Any) -> str:
    """A validated parameter value as text: enums by value, dates and instants in ISO 8601 (instants in UTC with
    ``Z``), booleans in lower case."""
    if isinstance(value, Enum):
        return serialize(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        # The API's instants are UTC (spec: "Identifiers, dates, instants and money"): a naive datetime is taken as UTC.
        aware = value if value.tzinfo is not None else value.replace(tzinfo=timezone.utc)
        return aware.isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    return str(value)


@dataclass
class RequestParts:
    """A method's arguments, sorted into the parts of the request."""

    path: str
    query: List[Tuple[str, Union[str, int, float, bool, None]]]
    headers: Dict[str, str]
    content: Optional[bytes]


def _body_json(operation: Operation[Any], body: Any, fields: Mapping[str, Any]) -> bytes:
    """The JSON body from a model, a mapping in the API's shape, or the method's keyword arguments."""
    model = operation.body
    assert model is not None
    if body is not None and fields:
        raise RequestValidationError(
            f"{operation.operation_id}: pass the body as a model or as keyword arguments, not both "
            f"({', '.join(sorted(fields))})",
            errors=[{"location": "body", "path": "", "message": "body given twice"}],
        )
    if body is None or isinstance(body, Mapping):
        data = dict(fields) if body is None else dict(body)
        try:
            body = model.model_validate(data)
        except pydantic.ValidationError as exc:
            raise RequestValidationError(
                f"invalid {model.__name__} body: {exc}",
                errors=[
                    {"location": "body", "path": ".".join(str(p) for p in e["loc"]), "message": e["msg"]}
                    for e in exc.errors()
                ],
            ) from exc
    if not isinstance(body, model):
        raise RequestValidationError(
            f"the body of {operation.operation_id} must be a meridian.models.{model.__name__} or keyword "
            f"arguments, not {type(body).__name__}",
            errors=[{"location": "body", "path": "", "message": f"expected {model.__name__}"}],
        )
    return str(body.to_json()).encode("utf-8")


def split_arguments(
    operation: Operation[Any], path_args: Sequence[Any], body: Any, kwargs: Mapping[str, Any]
) -> RequestParts:
    """Sorts a method's arguments into path, query, headers and body, validating each against the spec.

    :param path_args: the path parameters, in the path's order.
    :param body: a body model (or a mapping in the API's shape), or ``None``.
    :param kwargs: the keyword arguments: query and header parameters by Python name, and the body's fields
        (``NOT_GIVEN`` ones left out). The per-call options are taken out by the caller.
    :raises RequestValidationError: a missing or invalid argument, an unknown keyword, a body of the wrong type.
    """
    path = operation.path
    path_params = [p for p in operation.params if p.location == "path"]
    for param, raw in zip(path_params, path_args):
        value = param.validate(raw)
        path = path.replace("{" + param.wire_name + "}", quote(serialize(value), safe=""))
    query: List[Tuple[str, Union[str, int, float, bool, None]]] = []
    headers: Dict[str, str] = {}
    fields: Dict[str, Any] = {}
    for name, raw in kwargs.items():
        known = operation.names.get(name)
        if known is None:
            if operation.body is None:
                raise TypeError(f"{operation.operation_id}() got an unexpected keyword argument {name!r}")
            if not isinstance(raw, NotGiven):
                fields[name] = raw
            continue
        if raw is None:
            continue
        value = known.validate(raw)
        if known.location == "query":
            values = value if isinstance(value, (list, tuple)) else [value]
            query.extend((known.wire_name, serialize(v)) for v in values)
        else:
            headers[known.wire_name] = serialize(value)
    for param in operation.params:
        if param.required and param.location != "path" and kwargs.get(param.name) is None:
            raise RequestValidationError(
                f"missing required {param.location} parameter {param.wire_name!r} ({param.name})",
                errors=[{"location": param.location, "path": param.wire_name, "message": "is required"}],
            )
    content = _body_json(operation, body, fields) if operation.body is not None else None
    return RequestParts(path, query, headers, content)
