"""Value classes that cost nothing at start-up: :class:`Record`, the base class the modules every command
imports use in place of ``@dataclass(frozen=True)``.

Why (issue 35): importing :mod:`dataclasses` imports :mod:`inspect` (with ``ast``, ``dis``, ``tokenize``), about
12 ms of CPU here, and ``@dataclass`` compiles each class's methods with ``exec`` when the class is defined,
about 0.5 ms a class; ``compat``, ``vendor --check`` and ``validate`` defined 9, 16 and 25 such classes
before doing any work. A record reads its fields from the class's annotations once, when the class is
defined, and every record shares one ``__init__``, ``__eq__``, ``__hash__`` and ``__repr__``.

A record is what ``@dataclass(frozen=True)`` makes of the same class body: its fields are its annotated
names in order (a base record's first; ``ClassVar`` annotations are no fields), a field's class value is its
default, :func:`attribute` gives a default factory or leaves a field out of ``==``, ``hash`` and ``repr``;
``==`` compares records of the same class field by field; a ``__post_init__`` method runs after ``__init__``;
assigning or deleting an attribute raises :class:`dataclasses.FrozenInstanceError` (that module is imported
then, not before). ``frozen=False`` in the
class statement makes a mutable record (state threaded through checks): assignable and, as a mutable
dataclass, unhashable. Refused as a generated ``__init__`` refuses them: a missing, unknown or repeated
argument, too many positional ones (``TypeError``); a field without default after one with a default is a
``TypeError`` when the class is defined.

>>> class Point(Record):
...     x: int
...     y: int = 0
...     note: str = attribute(default="", compare=False, repr=False)
>>> Point(1), Point(1, 2) == Point(1, 2, note="other"), hash(Point(1)) == hash(Point(1, 0))
(Point(x=1, y=0), True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, dataclass_transform

_MISSING: Any = object()


class _Attribute:
    """What :func:`attribute` says of one field."""

    __slots__ = ("compare", "default", "factory", "shown")

    def __init__(self, default: Any, factory: Callable[[], Any] | None, compare: bool, shown: bool) -> None:
        self.default = default
        self.factory = factory
        self.compare = compare
        self.shown = shown


def attribute(*, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None,
              compare: bool = True, repr: bool = True) -> Any:
    """A field's default (or a factory called for each record), and whether ``==``/``hash`` and ``repr`` use it."""
    return _Attribute(default, default_factory, compare, repr)


def _is_class_variable(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _frozen(name: str) -> Exception:
    from dataclasses import FrozenInstanceError  # only a refused assignment needs it

    return FrozenInstanceError(f"cannot assign to field {name!r}")


@dataclass_transform(frozen_default=True, field_specifiers=(attribute,))
class Record:
    """Base class of a value record (see the module text)."""

    _record_fields: ClassVar[tuple[str, ...]] = ()
    _record_specs: ClassVar[dict[str, _Attribute]] = {}
    _record_compared: ClassVar[tuple[str, ...]] = ()
    _record_shown: ClassVar[tuple[str, ...]] = ()
    _record_post_init: ClassVar[bool] = False

    def __init_subclass__(cls, *, frozen: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        specs = dict(cls._record_specs)
        for name, annotation in cls.__annotations__.items():  # this class's own (Python 3.10 and later)
            if _is_class_variable(annotation):
                continue
            value = cls.__dict__.get(name, _MISSING)
            spec = value if isinstance(value, _Attribute) else _Attribute(value, None, True, True)
            if spec.default is _MISSING:
                if name in cls.__dict__:
                    delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
            specs.pop(name, None)
            specs[name] = spec
        defaulted = False
        for name, spec in specs.items():
            has_default = spec.default is not _MISSING or spec.factory is not None
            if defaulted and not has_default:
                raise TypeError(f"non-default argument {name!r} follows default argument")
            defaulted = defaulted or has_default
        cls._record_specs = specs
        cls._record_fields = tuple(specs)
        cls._record_compared = tuple(name for name, spec in specs.items() if spec.compare)
        cls._record_shown = tuple(name for name, spec in specs.items() if spec.shown)
        cls._record_post_init = hasattr(cls, "__post_init__")
        setattr(cls, "__match_args__", cls._record_fields)  # noqa: B010 - mypy knows no __match_args__ here
        if frozen:
            cls.__setattr__ = Record.__setattr__  # type: ignore[method-assign]
            cls.__delattr__ = Record.__delattr__  # type: ignore[method-assign]
            cls.__hash__ = Record.__hash__  # type: ignore[method-assign]
        else:
            cls.__setattr__ = object.__setattr__  # type: ignore[method-assign, assignment]
            cls.__delattr__ = object.__delattr__  # type: ignore[method-assign]
            cls.__hash__ = None  # type: ignore[assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kind = type(self)
        names = kind._record_fields
        if len(args) > len(names):
            raise TypeError(f"{kind.__qualname__}() takes {len(names)} positional arguments but {len(args)} "
                            "were given")
        state = self.__dict__
        state.update(zip(names, args, strict=False))
        for name, value in kwargs.items():
            if name not in kind._record_specs:
                raise TypeError(f"{kind.__qualname__}() got an unexpected keyword argument {name!r}")
            if name in state:
                raise TypeError(f"{kind.__qualname__}() got multiple values for argument {name!r}")
            state[name] = value
        if len(state) < len(names):  # defaults, in field order
            for name in names:
                if name in state:
                    continue
                spec = kind._record_specs[name]
                if spec.factory is not None:
                    state[name] = spec.factory()
                elif spec.default is not _MISSING:
                    state[name] = spec.default
                else:
                    raise TypeError(f"{kind.__qualname__}() missing 1 required argument: {name!r}")
        if kind._record_post_init:
            self.__post_init__()  # type: ignore[attr-defined]

    def _record_key(self) -> tuple[Any, ...]:
        return tuple(self.__dict__[name] for name in self._record_compared)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._record_key() == other._record_key()

    def __hash__(self) -> int:
        return hash(self._record_key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={self.__dict__[name]!r}" for name in self._record_shown)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise _frozen(name)

    def __delattr__(self, name: str) -> None:
        raise _frozen(name)


__all__ = ["Record", "attribute"]
