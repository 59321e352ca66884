"""Arrow's view types read as their plain types: ``string_view`` as ``string``, ``list_view`` as ``list``, ….

Some writers store columns of Arrow's view types (``string_view``, ``binary_view``, ``list_view``,
``large_list_view``, also nested), which Arrow's selection kernels cannot handle. The enrichment
readers make every such column plain on the way in (the values are the same; only the type changes),
so outputs have the plain type. List views are rebuilt from their logical values: Arrow's own cast of a
list view yields an invalid list array (Arrow 26), which once made ``extract`` call a valid file
unreadable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from contract.enrichment.table import require_pyarrow

if TYPE_CHECKING:
    import pyarrow as pa

_VIEWS = (("is_string_view", "string"), ("is_binary_view", "binary"))
_LIST_VIEWS = (("is_list_view", "list_"), ("is_large_list_view", "large_list"))


def plain_type(kind: Any) -> Any:
    """``kind`` with every Arrow view type replaced by its plain equivalent (recursively)."""
    pa = require_pyarrow()
    types = pa.types
    for test, plain in _VIEWS:
        if getattr(types, test, lambda _: False)(kind):
            return getattr(pa, plain)()
    for test, plain in _LIST_VIEWS:
        if getattr(types, test, lambda _: False)(kind):
            return getattr(pa, plain)(kind.value_field.with_type(plain_type(kind.value_type)))
    if types.is_list(kind) or types.is_large_list(kind):
        maker = pa.list_ if types.is_list(kind) else pa.large_list
        return maker(kind.value_field.with_type(plain_type(kind.value_type)))
    if types.is_fixed_size_list(kind):
        return pa.list_(kind.value_field.with_type(plain_type(kind.value_type)), kind.list_size)
    if types.is_struct(kind):
        return pa.struct([kind.field(i).with_type(plain_type(kind.field(i).type)) for i in range(kind.num_fields)])
    if types.is_map(kind):
        return pa.map_(plain_type(kind.key_type), kind.item_field.with_type(plain_type(kind.item_type)))
    if types.is_dictionary(kind):
        return pa.dictionary(kind.index_type, plain_type(kind.value_type), kind.ordered)
    return kind


def plain_schema(schema: pa.Schema) -> pa.Schema:
    """The schema with view types replaced (the same object when there are none)."""
    pa = require_pyarrow()
    fields = [field.with_type(plain_type(field.type)) for field in schema]
    if all(new.type == old.type for new, old in zip(fields, schema, strict=True)):
        return schema
    return pa.schema(fields, metadata=schema.metadata)


def plain_table(pa: Any, table: Any, plain: pa.Schema) -> pa.Table:
    """``table`` (a table or record batch) as contiguous arrays of ``plain``, column by column."""
    columns = []
    for name, field in zip(table.schema.names, plain, strict=True):
        column = table.column(name)
        chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
        plain_chunks = [plain_array(pa, chunk, field.type) for chunk in chunks]
        columns.append(pa.chunked_array(plain_chunks, type=field.type))
    return pa.Table.from_arrays(columns, schema=plain).combine_chunks()


def plain_array(pa: Any, array: Any, kind: Any) -> Any:
    """``array`` as type ``kind`` (its plain equivalent): list views rebuilt as lists from their
    logical values (Arrow's own cast of a list view gives an invalid list array), the rest cast."""
    if array.type == kind:
        return array
    types = pa.types
    listy = [getattr(types, test, lambda _: False)(array.type)
             for test in ("is_list_view", "is_large_list_view", "is_list", "is_large_list")]
    if any(listy) and (types.is_list(kind) or types.is_large_list(kind)):
        import pyarrow.compute as pc

        lengths = np.asarray(pc.list_value_length(array).fill_null(0).to_numpy(zero_copy_only=False))
        wide = types.is_large_list(kind)
        offsets = pa.array(np.concatenate([[0], np.cumsum(lengths)]), pa.int64() if wide else pa.int32())
        values = plain_array(pa, array.flatten(), kind.value_type)
        maker = pa.LargeListArray if wide else pa.ListArray
        mask = array.is_null() if array.null_count else None
        return maker.from_arrays(offsets, values, type=kind, mask=mask)
    if types.is_struct(array.type) and types.is_struct(kind):
        children = [plain_array(pa, child, kind.field(i).type) for i, child in enumerate(array.flatten())]
        mask = array.is_null() if array.null_count else None
        return pa.StructArray.from_arrays(children, fields=list(kind), mask=mask)
    return array.cast(kind)
