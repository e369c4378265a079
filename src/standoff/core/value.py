"""The base of the core's immutable value classes.

Orders, and the parts of a game record, are built for every phase played
(eleven record values and a score of orders a phase in self-play), so they are
plain classes with ``Final`` attributes rather than frozen dataclasses: a
dataclass's generated ``__init__`` stays interpreted in the compiled core
(about 0.4 µs a value, and more with more fields), where a hand-written one
compiles to a native constructor (0.02 µs). The attributes stay read-only: mypy
refuses an assignment, the compiled classes refuse it at run time, and so, in
the pure Python build, does a write-once ``__setattr__`` set on :class:`Value`
below (where it costs what a frozen dataclass's constructor cost).

What a frozen dataclass gave for free is here, once, keyed on :meth:`Value._args`
(the constructor's arguments, in order): equality with a value of the same
class, a hash, pickling and copying by the constructor, and a ``repr`` in the
dataclass's ``Class(field=value, ...)`` form for kinds that want one.
"""

from __future__ import annotations


class Value:
    """An immutable value, equal to another of its class with the same arguments."""

    __slots__ = ()

    def _args(self) -> tuple[object, ...]:
        """The constructor's arguments, in order (each subclass lists its fields)."""
        raise NotImplementedError(f"{type(self).__name__} lists no arguments")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Value):
            return NotImplemented
        return self._args() == other._args()

    def __hash__(self) -> int:
        return hash(self._args())

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle and copy by the constructor's arguments (the compiled classes
        cannot be rebuilt attribute by attribute)."""
        return (type(self), self._args())


def fields_repr(value: Value, names: tuple[str, ...]) -> str:
    """``Class(name=value, ...)``, a dataclass's repr, for the arguments ``names``."""
    args = ", ".join(f"{n}={a!r}" for n, a in zip(names, value._args(), strict=True))
    return f"{type(value).__name__}({args})"


def _write_once(self: Value, name: str, value: object) -> None:
    """The pure Python build's ``__setattr__``: an attribute is set by the
    constructor and never again, as a compiled ``Final`` attribute."""
    try:
        getattr(self, name)
    except AttributeError:  # not set yet: the constructor's assignment
        object.__setattr__(self, name, value)
        return
    raise AttributeError(f"{type(self).__name__}.{name} cannot be changed: "
                         f"a {type(self).__name__} is an immutable value")


def _no_delete(self: Value, name: str) -> None:
    raise AttributeError(f"{type(self).__name__}.{name} cannot be deleted: "
                         f"a {type(self).__name__} is an immutable value")


if __file__.endswith(".py"):  # the pure Python build (compiled classes refuse by themselves)
    setattr(Value, "__setattr__", _write_once)  # noqa: B010 (not a method mypy may assign)
    setattr(Value, "__delattr__", _no_delete)  # noqa: B010
