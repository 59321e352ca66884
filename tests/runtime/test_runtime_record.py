"""contract.core.record.Record behaves as ``@dataclass(frozen=True)`` does for the same class body (issue 35:
the kit's value classes moved from dataclasses to records to spare every command ``import inspect``).

The reference is the standard library's dataclasses, run on the same fields here.
"""

from __future__ import annotations

import dataclasses
import pickle
import threading
from typing import ClassVar

import pytest

from contract.core.interrupts import terminate_as_interrupt
from contract.core.record import Record, attribute


class Point(Record):
    x: int
    y: int = 0
    note: str = attribute(default="", compare=False, repr=False)
    tags: list[str] = attribute(default_factory=list, compare=False)
    KIND: ClassVar[str] = "point"


@dataclasses.dataclass(frozen=True)
class PointData:
    x: int
    y: int = 0
    note: str = dataclasses.field(default="", compare=False, repr=False)
    tags: list[str] = dataclasses.field(default_factory=list, compare=False)
    KIND: ClassVar[str] = "point"


class Labelled(Point):
    label: str = "a"


class State(Record, frozen=False):
    count: int = 0


class Derived(Record):
    text: str
    length: int = 0

    def __post_init__(self) -> None:
        if not self.length:
            object.__setattr__(self, "length", len(self.text))


@pytest.mark.parametrize(("args", "kwargs"), [((1,), {}), ((1, 2), {}), ((1,), {"note": "n"}), ((), {"x": 3, "y": 4}),
                                              ((1, 2, "n", ["t"]), {})])
def test_a_record_is_built_compared_hashed_and_shown_as_the_dataclass(args: tuple[object, ...],
                                                                      kwargs: dict[str, object]) -> None:
    record, data = Point(*args, **kwargs), PointData(*args, **kwargs)  # type: ignore[arg-type]
    assert repr(record) == repr(data).replace("PointData", "Point")
    assert (record.x, record.y, record.note, record.tags) == (data.x, data.y, data.note, data.tags)
    assert hash(record) == hash(data)
    assert record == Point(*args, **kwargs)  # type: ignore[arg-type]
    assert (record == Point(record.x, record.y, note="other", tags=["x"])) == (
        data == PointData(data.x, data.y, note="other", tags=["x"]))
    assert record != Point(record.x + 1)
    assert record != data  # another class is never equal, as between two dataclasses


def test_the_fields_are_the_annotated_names_in_order_base_first() -> None:
    assert Point._record_fields == ("x", "y", "note", "tags")
    assert Labelled._record_fields == ("x", "y", "note", "tags", "label")
    assert Labelled(1, label="b") == Labelled(1, 0, "", [], "b") != Labelled(1)
    assert Point.KIND == "point" and "KIND" not in Point._record_fields
    assert Point.__match_args__ == ("x", "y", "note", "tags")  # type: ignore[attr-defined]


def test_a_default_factory_gives_each_record_its_own_value() -> None:
    first, second = Point(1), Point(1)
    first.tags.append("t")
    assert second.tags == []


def test_a_record_cannot_be_changed_after_the_fact() -> None:
    point = Point(1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del point.y  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.other = 1  # type: ignore[attr-defined]
    assert point == Point(1)


def test_a_mutable_record_is_assignable_and_unhashable_as_a_mutable_dataclass() -> None:
    state = State()
    state.count += 2
    assert state == State(2) and repr(state) == "State(count=2)"
    with pytest.raises(TypeError):
        hash(state)


@pytest.mark.parametrize(("build", "message"), [
    (Point, "Point() missing 1 required argument: 'x'"),
    (lambda: Point(1, 2, "n", [], "extra"), "Point() takes 4 positional arguments but 5 were given"),
    (lambda: Point(1, x=2), "Point() got multiple values for argument 'x'"),
    (lambda: Point(1, z=2), "Point() got an unexpected keyword argument 'z'"),
])
def test_wrong_arguments_are_refused_as_a_generated_init_refuses_them(build: object, message: str) -> None:
    assert callable(build)
    with pytest.raises(TypeError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
        build()


def test_a_required_field_after_a_defaulted_one_is_refused_when_the_class_is_defined() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        class Wrong(Record):
            a: int = 0
            b: int


def test_post_init_runs_and_a_record_survives_pickling() -> None:
    derived = Derived("four")
    assert derived.length == 4 and Derived("four", 9).length == 9
    point = Point(1, 2, "n", ["t"])
    copy = pickle.loads(pickle.dumps(point))
    assert copy == point and copy.note == "n" and copy.tags == ["t"]


def test_sigterm_handling_outside_the_main_thread_leaves_the_block_as_it_is() -> None:
    # signal.signal refuses another thread with ValueError; the block must still run there
    ran: list[bool] = []

    def work() -> None:
        with terminate_as_interrupt():
            ran.append(True)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(timeout=30)
    assert ran == [True]
