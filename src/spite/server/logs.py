"""The server's log lines: plain text (the default) or one JSON object a line (``spite serve
--log-format json``), for a log collector that reads fields rather than sentences.

A JSON line has ``time`` (ISO 8601, UTC), ``level``, ``logger`` and ``message``, and whatever the
line carries besides: an operator's action its ``operator``, ``action`` and ``target``; uvicorn's
access line its ``client``, ``method``, ``path`` and ``status``; an error its ``exception`` (the
traceback as one string).

>>> import logging
>>> record = logging.LogRecord("spite.server", logging.INFO, "x.py", 1, "table %s: created", ("t1",), None)
>>> record.created = 0.0
>>> JsonFormatter().format(record)
'{"time": "1970-01-01T00:00:00.000Z", "level": "info", "logger": "spite.server", "message": "table t1: created"}'
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

__all__ = ["LOG_FORMATS", "JsonFormatter", "setup_logging", "uvicorn_log_config"]

LOG_FORMATS = ("text", "json")

_PLAIN = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "color_message"}
"""The attributes every log record has: anything else on a record is an extra field of the line."""

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module's text)."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line: dict[str, Any] = {
            "time": f"{stamp}.{int(record.created % 1 * 1000):03d}Z",
            "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage()}
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) >= 5:
            client, method, path, _version, status = record.args[:5]
            line.update(client=client, method=method, path=path, status=status)
        for key, value in vars(record).items():
            if key not in _PLAIN and not key.startswith("_"):
                line[key] = value if isinstance(value, str | int | float | bool | None) else str(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def setup_logging(level: str, fmt: str = "text") -> None:
    """This process's root logger at ``level``, writing ``fmt`` lines to standard error."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())


def uvicorn_log_config(fmt: str) -> dict[str, Any] | None:
    """uvicorn's logging for ``fmt``: its own (``None``: its default) for text, else its loggers on the
    root's JSON handler."""
    if fmt != "json":
        return None
    return {"version": 1, "disable_existing_loggers": False,
            "loggers": {"uvicorn": {"handlers": [], "propagate": True},
                        "uvicorn.error": {"handlers": [], "propagate": True},
                        "uvicorn.access": {"handlers": [], "propagate": True}}}
