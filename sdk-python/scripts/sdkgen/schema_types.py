"""Python annotations for the spec's schemas: what pydantic validates a parameter against, what a method's signature
says a caller may pass (``Union[UUID, str]`` for an id, an enum or its values, a model or a TypedDict of its fields),
and the TypedDicts of nested body objects (``params.py``)."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Set, Tuple

from .text import docstring, one_line, pascal, snake, wrap


class Types:
    """Annotations for one spec, and the models and TypedDicts they use."""

    def __init__(self, spec: Dict[str, Any], models: Dict[str, str]) -> None:
        self.spec = spec
        self.models = models  # class name -> module name under models/
        self.schemas: Dict[str, Any] = spec.get("components", {}).get("schemas", {})
        self.used_models: Set[str] = set()
        self.typed_dicts: Dict[str, str] = {}  # TypedDict name -> its source

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

    @staticmethod
    def nullable(schema: Dict[str, Any]) -> Tuple[Dict[str, Any], bool]:
        """The schema without its ``null`` alternative, and whether it had one."""
        kind = schema.get("type")
        if isinstance(kind, list) and "null" in kind:
            rest = [k for k in kind if k != "null"]
            return {**schema, "type": rest[0] if len(rest) == 1 else rest}, True
        for key in ("oneOf", "anyOf"):
            options = schema.get(key)
            if options and any(o.get("type") == "null" for o in options):
                others = [o for o in options if o.get("type") != "null"]
                if len(others) == 1:
                    return {**{k: v for k, v in schema.items() if k != key}, **others[0]}, True
        return schema, False

    def _enum(self, name: str) -> str:
        """``Union[Enum, Literal[values]]`` for a named enum schema; one of ``x-sdk.enum``'s kinds or its own values
        for a schema that names another enum (the models type it as a string)."""
        target = self.schemas.get(name, {})
        literals = ", ".join(json.dumps(v) for v in target["enum"])
        other = (target.get("x-sdk") or {}).get("enum")
        return f"Union[{self.model(other if other else name)}, Literal[{literals}]]"

    # --- parameters (path, query, header) -------------------------------------------------------------------
    def param_types(self, schema: Dict[str, Any]) -> Tuple[str, str]:
        """(annotation pydantic validates against, annotation of the method's signature) for a parameter."""
        ref = schema.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if "enum" in self.schemas.get(name, {}):
                signature = self._enum(name)
                other = (self.schemas[name].get("x-sdk") or {}).get("enum")
                return (signature if other else name), signature
            return self.model(name), name
        kind = schema.get("type")
        if "enum" in schema:
            literals = ", ".join(json.dumps(v) for v in schema["enum"])
            return f"Literal[{literals}]", f"Literal[{literals}]"
        constraints: List[str] = []
        if kind == "string":
            fmt = schema.get("format")
            if fmt in ("uuid", "date", "date-time"):
                base = {"uuid": "UUID", "date": "date", "date-time": "datetime"}[fmt]
                return base, f"Union[{base}, str]"
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
            # One value or several: `status="AT_RISK"` or `status=["AT_RISK", "OFF_TRACK"]` (the client wraps one).
            runtime, signature = self.param_types(schema.get("items", {}))
            return f"List[{runtime}]", f"Union[{signature}, Sequence[{signature}]]"
        raise SystemExit(f"generate_operations: unsupported parameter schema {json.dumps(schema)}")

    @staticmethod
    def annotated(base: str, constraints: List[str], strict: bool = True) -> str:
        args = (["strict=True"] if strict else []) + constraints
        return f"Annotated[{base}, Field({', '.join(args)})]"

    # --- body fields ----------------------------------------------------------------------------------------
    def input_type(self, schema: Dict[str, Any], owner: str, prop: str) -> str:
        """What a caller may pass for a body field (``None`` aside: the caller adds it for nullable fields).

        :param owner: the model that holds the field (for the name of an inline object's model).
        """
        schema, _ = self.nullable(schema)
        ref = schema.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            target = self.schemas.get(name, {})
            if "enum" in target:
                return self._enum(name)
            if target.get("type") == "object" or "properties" in target:
                return f"Union[{self.model(name)}, {self.typed_dict(name, target)}]"
            return self.input_type(target, owner, prop)
        if "enum" in schema:
            return "Literal[" + ", ".join(json.dumps(v) for v in schema["enum"]) + "]"
        kind = schema.get("type")
        if kind == "array":
            return f"Sequence[{self.input_type(schema.get('items', {}), owner, prop)}]"
        if kind == "object" and schema.get("properties"):
            name = owner + pascal(prop)
            return f"Union[{self.model(name)}, {self.typed_dict(name, schema)}]"
        if kind == "object":
            return "Mapping[str, Any]"
        return self.param_types(schema)[1]

    def typed_dict(self, model: str, schema: Dict[str, Any]) -> str:
        """The TypedDict of a model's fields by their snake_case names (``params.py``): ``<Model>Param``."""
        name = f"{model}Param"
        if name in self.typed_dicts:
            return name
        self.typed_dicts[name] = ""  # reserved: a recursive schema refers to itself
        required = set(schema.get("required", []))
        lines = [f"\n\nclass {name}(TypedDict, total=False):\n"]
        doc = f"The fields of ``meridian.models.{model}`` as a dict, by their snake_case names."
        lines.append(docstring("\n".join(wrap(doc, subsequent="")), "    "))
        for prop, sub in schema.get("properties", {}).items():
            annotation = self.input_type(sub, model, prop)
            if self.nullable(sub)[1]:
                annotation = f"Optional[{annotation}]"
            lines.append(f"    {snake(prop)}: {'Required' if prop in required else 'NotRequired'}[{annotation}]\n")
            description = one_line(sub.get("description"))
            if description:
                lines.append(docstring("\n".join(wrap(description, width=106, subsequent="")), "    "))
        self.typed_dicts[name] = "".join(lines)
        return name
