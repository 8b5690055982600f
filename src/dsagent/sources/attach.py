"""A session's inputs split into data files and a database (or Spark) source, and the source's
tables made datasets: the parent holds the connection (the broker), the sandbox gets ``sql()``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dsagent.errors import UserError
from dsagent.sources.url import SourceSpec, is_source, parse_source


def open_sources(inputs: Any, settings: Any) -> tuple[Any, Any, dict[str, Any]]:
    """(the inputs left for the file loaders, the broker or None, the tables as datasets)."""
    from dsagent.data.catalog import slugify

    items = list(inputs.items()) if isinstance(inputs, Mapping) else [(None, v) for v in inputs]
    sources = [(label, v) for label, v in items if is_source(v)]
    rest = [(label, v) for label, v in items if not is_source(v)]
    spark = getattr(settings, "engine", "local") == "spark"
    if not sources and not spark:
        return inputs, None, {}
    if len(sources) > 1 or (spark and sources):
        raise UserError("one database source per session (with engine = \"spark\": none; Spark reads the files and its own tables)")
    files: dict[str, Path] = {}
    if spark:
        from dsagent.sources.spark import spark_format

        keep = []
        for label, value in rest:
            if isinstance(value, (str, Path)) and spark_format(Path(value)) is not None:
                path = Path(value).expanduser()
                if not path.is_file():
                    raise UserError(f"{path}: file not found. Check the path and the spelling of the name.")
                files[slugify(label or path.stem)] = path.resolve()
            else:
                keep.append((label, value))  # Excel and DataFrames stay pandas datasets
        rest = keep
        spec = SourceSpec("spark", settings.spark_url, f"Spark {settings.spark_url.split(';')[0]}")
    else:
        spec = parse_source(sources[0][1])
    from dsagent.sources.broker import open_broker

    broker = open_broker(spec, settings, files)
    try:
        tables = table_datasets(broker, settings.data_sharing)
    except BaseException:
        broker.close()
        raise
    left: Any = {label: v for label, v in rest} if isinstance(inputs, Mapping) else [v for _, v in rest]
    return left, broker, tables


def table_datasets(broker: Any, sharing: str) -> dict[str, Any]:
    """Every table of the broker's source as a :class:`Dataset` whose frame is its first rows only."""
    from dsagent.data.catalog import Dataset, slugify
    from dsagent.sources.tables import describe

    out: dict[str, Any] = {}
    for info, sample in describe(broker.engine, sharing):
        slug = slugify(info.name, "table")
        n = 2
        while slug in out:
            slug, n = f"{slugify(info.name, 'table')}_{n}", n + 1
        out[slug] = Dataset(slug, info.name, None, sample, table=info)
    if not out:
        raise UserError(f"{broker.label}: no tables found (check the database and the role's SELECT grants)")
    for slug, ds in out.items():
        broker.table_names[slug] = broker.table_names[ds.name] = ds.name
    if len(out) == 1:
        broker.table_names["df"] = next(iter(out.values())).name
    return out
