"""Odd values to every REST endpoint (the app's own route list, so a new route is covered the day
it is added): huge and negative numbers, floats, odd unicode, empty strings. A refusal is a 4xx
with one line; a 5xx would be a crash a stranger could trigger."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from spite.server import ServerConfig, create_app

# Imported whole before any bot thread starts: a bot's first move imports numpy in its thread, and
# Hypothesis, drawing in this thread, looks numpy up in sys.modules; half-imported, it broke a draw.
with contextlib.suppress(ImportError):
    import numpy  # noqa: F401

ODD_TEXT = st.one_of(
    st.just(""), st.just("\ud800"), st.just("\x00"), st.just("../../etc/passwd"), st.just("🂡" * 50),
    st.just("9223372036854775808"), st.just("1e20"), st.just("NaN"), st.just("-1"),
    st.text(max_size=30), st.text(st.characters(codec="utf-8"), max_size=10))
ODD_NUMBER = st.one_of(st.integers(-(2**70), 2**70), st.sampled_from([2**63, 2**63 - 1, -(2**63) - 1, 0, -1]),
                       st.floats(allow_nan=True, allow_infinity=True))
SCALAR = st.one_of(ODD_TEXT, ODD_NUMBER, st.booleans(), st.none())
VALUE = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(ODD_TEXT, inner, max_size=4)), max_leaves=8)


VALID: dict[str, Any] = {"name": "ann", "preset": "short", "level": "random", "playerKey": "k" * 32}
OPTION_NAMES = ["stock_size", "hand_size", "players", "match_target", "build_piles", "discard_piles", "time_limit_s",
                "auto_spit_ms", "decks", ""]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    tmp: Path = tmp_path_factory.mktemp("fuzz")
    # generous write limits: this test is about odd values, not about how many
    config = ServerConfig(db_url=f"sqlite:///{tmp / 'spite.db'}", bot_workers=0, start_countdown=0.0,
                          write_rate=1e6, write_burst=1e6, max_open_tables=10**6, bot_delay=0.0)
    with TestClient(create_app(config), raise_server_exceptions=False) as c:
        yield c


def _routes(client: TestClient) -> list[APIRoute]:
    return [r for r in client.app.routes if isinstance(r, APIRoute)]  # type: ignore[attr-defined]


def _field_names(route: APIRoute) -> list[str]:
    body = route.dependant.body_params
    if not body:
        return []
    model = body[0].field_info.annotation
    return list(getattr(model, "model_fields", {}))


@st.composite
def requests(draw: st.DrawFn, routes: list[APIRoute]) -> tuple[str, str, dict[str, Any], str | None]:
    route = draw(st.sampled_from(routes))
    method = sorted(route.methods or {"GET"})[0]
    path = route.path
    for param in route.dependant.path_params:
        value = draw(st.one_of(ODD_TEXT, ODD_NUMBER.map(str)))
        path = path.replace("{" + param.name + "}", quote(value.encode("utf-8", "surrogatepass"), safe="") or "x")
    query = {p.name: draw(st.one_of(ODD_TEXT, ODD_NUMBER.map(str))) for p in route.dependant.query_params
             if draw(st.booleans())}
    body: str | None = None
    if method in ("POST", "PUT", "PATCH"):
        fields = _field_names(route)
        # mostly a request that would be accepted, with one or two fields odd, so the odd value
        # gets past the model into the lobby, the games' options and the store
        obj: dict[str, Any] = {k: v for k, v in VALID.items() if k in fields}
        for name in draw(st.lists(st.sampled_from(fields), max_size=2)) if fields else ():
            obj[name] = draw(st.one_of(VALUE, st.dictionaries(st.sampled_from(OPTION_NAMES), SCALAR, max_size=3)))
        kind = draw(st.integers(0, 7))
        if kind == 0:
            obj[draw(ODD_TEXT)] = draw(VALUE)  # a field no model has
        body = draw(VALUE.map(json.dumps)) if kind == 1 else draw(ODD_TEXT) if kind == 2 else json.dumps(obj)
    return method, path, query, body


def test_every_route_is_listed(client: TestClient) -> None:
    paths = {r.path for r in _routes(client)}
    assert {"/api/tables", "/api/quickplay", "/api/games/{game_id}/record", "/healthz"} <= paths


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(data=st.data())
def test_odd_values_never_make_a_server_error(client: TestClient, data: st.DataObject) -> None:
    method, path, query, body = data.draw(requests(_routes(client)))
    params = {k: v.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for k, v in query.items()}
    content = None if body is None else body.encode("utf-8", "surrogatepass")
    r = client.request(method, path, params=params, content=content,
                       headers={"content-type": "application/json"} if body is not None else {})
    event(f"{method} {route_of(path)} {r.status_code}")
    assert r.status_code < 500, (method, path, query, body, r.status_code, r.text[:300])
    if r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
        assert "detail" in r.json()


def route_of(path: str) -> str:
    """The path with its variable parts blanked (for Hypothesis's statistics of what was reached)."""
    parts = path.split("/")
    return "/".join(p if p in ("", "api", "tables", "games", "players", "join", "record", "positions", "stats",
                               "quickplay", "healthz", "t") else "…" for p in parts)


# ---------------------------------------------------------------------- WebSocket frames

FRAME_TYPES = st.sampled_from(["move", "sync", "ping", "hint", "undo", "next", "", "teleport", "\ud800"])
FRAME = st.one_of(
    st.fixed_dictionaries({"type": FRAME_TYPES},
                          optional={"move": VALUE, "stateVersion": VALUE, "id": VALUE, "spectate": VALUE,
                                    "token": VALUE}).map(json.dumps),
    VALUE.map(json.dumps), ODD_TEXT)


@pytest.fixture(scope="module")
def socket_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from server_helpers import ServerThread

    config = ServerConfig(db_url=f"sqlite:///{tmp_path_factory.mktemp('wsfuzz') / 'spite.db'}", bot_workers=0,
                          rate=1e6, burst=1e6)
    with ServerThread(config) as srv:
        yield srv


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(frames=st.lists(FRAME, min_size=1, max_size=5))
def test_every_odd_frame_gets_one_answer_and_the_socket_stays(socket_server: Any, frames: list[str]) -> None:
    """Before ``hello`` (``hello`` itself is left out: at a table that does not exist it closes the
    socket, as it should), every frame is answered by exactly one ``error`` (or ``pong``)."""
    from server_helpers import Client

    c = Client(socket_server.base, "no-such-table")
    try:
        for frame in frames:
            c.ws.send(frame.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))
            answer = c.recv(10)
            assert answer["type"] in ("error", "pong"), (frame, answer)
            if answer["type"] == "error":
                assert answer["code"] in ("bad-json", "bad-message", "unknown-message", "hello-first", "too-long"), \
                    (frame, answer)
        c.send({"type": "ping", "id": "end"})
        assert c.recv(10) == {"type": "pong", "id": "end"}
    finally:
        c.close()


def test_a_refusal_that_names_a_lone_surrogate_is_still_an_answer(client: TestClient) -> None:
    # found by the test above: the refusal names the unknown option, and "\ud800" is not UTF-8
    body = json.dumps({"name": "ann", "preset": "short", "playerKey": "k" * 32, "options": {"\ud800": ""}})
    r = client.post("/api/tables", content=body.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text[:300]
    assert "unknown option" in r.json()["detail"]
