"""A fast, exact deep copy of pydantic models, generated from their field annotations.

``model_copier(cls)`` returns a function that copies an instance of ``cls``: immutable field
values (``int``, ``str``, ``bool``, ``None``, ``Literal``) are shared, lists and dicts are
copied (recursively, as their annotation says), nested models are copied by their own copier,
and ``Any`` values are copied as JSON-like data. No validation runs: the copy of a valid
model is valid. The copier's source is generated once per class from the annotations (one
flat function per model, no per-field calls), so nothing is written by hand per field and a
new field is copied as soon as it is declared. Measured mid-game (4 players): about 2x faster
than ``model_validate(model_dump())`` (``python -m devtools.brazil bench`` prints clones per second).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

_ATOMS: tuple[type, ...] = (int, str, bool, float, type(None))
_D = BaseModel.__dict__


def json_copy(v: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, tuples, atoms, models)."""
    t = type(v)
    if t is dict:
        return {k: json_copy(x) for k, x in v.items()}
    if t is list:
        return [json_copy(x) for x in v]
    if t is tuple:
        return tuple(json_copy(x) for x in v)
    if t in _ATOMS:
        return v
    if isinstance(v, BaseModel):
        return model_copier(t)(v)
    raise TypeError(f"cannot copy a {t.__name__}")


class _Generator:
    def __init__(self) -> None:
        self.ns: dict[str, Any] = {
            "_json_copy": json_copy,
            "_new": object.__new__,
            "_set_dict": _D["__dict__"].__set__,
            "_set_fields": _D["__pydantic_fields_set__"].__set__,
            "_set_extra": _D["__pydantic_extra__"].__set__,
            "_set_private": _D["__pydantic_private__"].__set__,
        }
        self.names: dict[type[BaseModel], str] = {}
        self.pending: list[str] = []
        self.depth = 0

    def expr(self, ann: Any, v: str) -> str | None:
        """An expression copying ``v`` of type ``ann``; None if it is immutable (shared)."""
        if ann in _ATOMS or ann is None:
            return None
        origin, args = get_origin(ann), get_args(ann)
        if origin is Literal:
            return None
        if origin in (Union, types.UnionType):
            subs = [(a, self.expr(a, v)) for a in args]
            real = [e for _, e in subs if e is not None]
            if not real:
                return None
            if len(real) == 1 and all(a in _ATOMS for a, e in subs if e is None):
                return f"(None if {v} is None else {real[0]})"
            return f"_json_copy({v})"
        if origin in (list, dict):
            self.depth += 1
            x, k = f"x{self.depth}", f"k{self.depth}"
            try:
                e = self.expr(args[-1], x)
            finally:
                self.depth -= 1
            if e is None:
                return f"{v}.copy()"
            # an empty container (the usual case) is copied without a comprehension
            if origin is list:
                return f"([{e} for {x} in {v}] if {v} else [])"
            return f"({{{k}: {e} for {k}, {x} in {v}.items()}} if {v} else {{}})"
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            if ann.model_config.get("frozen"):
                return None  # an immutable value: shared (replaced, never changed in place)
            return f"{self.model(ann)}({v})"
        return f"_json_copy({v})"  # Any, tuples and other JSON-like values

    def model(self, cls: type[BaseModel]) -> str:
        name = self.names.get(cls)
        if name is not None:
            return name
        name = f"_copy_{cls.__name__}_{len(self.names)}"
        self.names[cls] = name
        self.ns[name + "_cls"] = cls
        hints = typing.get_type_hints(cls)
        lines = [f"def {name}(m):", "    d = m.__dict__.copy()"]
        for field in cls.model_fields:
            e = self.expr(hints[field], f"d[{field!r}]")
            if e is not None:
                lines.append(f"    d[{field!r}] = {e}")
        lines += [
            f"    o = _new({name}_cls)",
            "    _set_dict(o, d)",
            "    _set_fields(o, m.__pydantic_fields_set__.copy())",
            "    _set_extra(o, None)",
            "    _set_private(o, None)",
            "    return o",
        ]
        self.pending.append("\n".join(lines))
        return name

    def build(self, cls: type[BaseModel]) -> Callable[[Any], Any]:
        name = self.model(cls)
        if self.pending:
            exec("\n\n".join(self.pending), self.ns)  # source generated from annotations
            self.pending = []
        fn: Callable[[Any], Any] = self.ns[name]
        return fn


_GEN = _Generator()
_COPIERS: dict[type[BaseModel], Callable[[Any], Any]] = {}

M = typing.TypeVar("M", bound=BaseModel)


def model_copier(cls: type[M]) -> Callable[[M], M]:
    """The copy function of a model class (generated on first use)."""
    fn = _COPIERS.get(cls)
    if fn is None:
        if cls.model_config.get("extra") == "allow" or cls.__private_attributes__:
            raise TypeError(f"{cls.__name__}: extra fields or private attributes not supported")
        fn = _COPIERS[cls] = _GEN.build(cls)
    return fn


_new = object.__new__
_set_dict = _D["__dict__"].__set__
_set_fields = _D["__pydantic_fields_set__"].__set__
_set_extra = _D["__pydantic_extra__"].__set__
_set_private = _D["__pydantic_private__"].__set__


def replaced(m: M, **changes: Any) -> M:
    """A shallow copy of ``m`` with ``changes`` (field values, not validated), like
    ``m.model_copy(update=changes)`` but without its per-field deep-copy machinery: how an
    immutable value (a frozen model such as :class:`rules.brazil.state.Tile`) is changed."""
    d = m.__dict__.copy()
    d.update(changes)
    o = _new(type(m))
    _set_dict(o, d)
    _set_fields(o, m.__pydantic_fields_set__ | changes.keys())
    _set_extra(o, None)
    _set_private(o, None)
    return o


def trusted(cls: type[M], values: dict[str, Any]) -> M:
    """A model of ``cls`` from engine-made ``values`` (every field given, already valid):
    what ``cls.model_construct(**values)`` builds, without validation or its per-field
    loop. ``values`` becomes the model's ``__dict__``."""
    o = _new(cls)
    _set_dict(o, values)
    _set_fields(o, set(values))
    _set_extra(o, None)
    _set_private(o, None)
    return o
