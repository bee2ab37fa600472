"""Accounts on several workers (``spite serve --workers 2``, PostgreSQL, HAProxy): each half of a
ceremony may reach either worker, so challenges, link codes and sessions live in the database: an
account begun at one worker is made at the other, a session made at one is good at the other, a
code made at one links a device at the other, a seat taken at one is the account's at the other
(hello with ``account``), and signing out everywhere at one signs out at both. Needs PostgreSQL
(``SPITE_TEST_PG_URL``) and HAProxy, else skipped."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import httpx
import pytest
from passkeys import SoftAuthenticator
from test_workers import cluster, needs_cluster
from websockets.sync.client import connect

from spite.server.table.seats import player_id


@pytest.mark.slow
@needs_cluster
def test_a_session_made_at_one_worker_is_good_at_the_other(tmp_path: Path) -> None:
    with cluster(tmp_path, 2) as c:
        w0, w1 = c.direct(0), c.direct(1)
        key = secrets.token_urlsafe(24)
        begun = httpx.post(w0 + "/api/account/register/begin", json={"handle": "pia", "playerKey": key},
                           timeout=30).json()
        credential = SoftAuthenticator(w1).create(begun["options"])  # the browser's answer reaches worker 1
        made = httpx.post(w1 + "/api/account/register/finish", headers={"origin": w1}, timeout=30,
                          json={"challengeId": begun["challengeId"], "credential": credential})
        assert made.status_code == 201, made.text
        token = made.cookies["spite_session"]
        at0 = httpx.get(w0 + "/api/account", cookies={"spite_session": token}, timeout=30)
        assert at0.status_code == 200 and at0.json()["playerId"] == player_id(key)

        code = httpx.post(w0 + "/api/account/link", headers={"origin": w0}, cookies={"spite_session": token},
                          timeout=30).json()["code"]
        phone = httpx.post(w1 + "/api/account/link/redeem", json={"code": code, "token": True}, timeout=30).json()
        bearer = {"authorization": f"Bearer {phone['session']}"}
        again = httpx.post(w0 + "/api/account/link/redeem", json={"code": code}, timeout=30)
        assert again.status_code == 400 and again.json()["code"] == "account.link-used"

        joined = httpx.post(w0 + "/api/quickplay", headers={"origin": w0}, cookies={"spite_session": token},
                            json={"level": "random", "preset": "short", "playerKey": key}, timeout=30).json()
        assert joined["playerId"] == player_id(key)
        with connect(w1.replace("http", "ws", 1) + f"/ws/{joined['table']['id']}", open_timeout=10,
                     additional_headers=bearer) as ws:  # the phone, at the other worker
            ws.send(json.dumps({"type": "hello", "account": True}))
            welcome = json.loads(ws.recv(15))
            while welcome["type"] != "welcome":
                assert welcome["type"] != "error", welcome
                welcome = json.loads(ws.recv(15))
            assert welcome["seat"] == joined["seat"]

        out = httpx.post(w1 + "/api/account/signout-everywhere", headers=bearer, timeout=30)
        assert out.json() == {"signedOut": 2}
        assert httpx.get(w0 + "/api/account", cookies={"spite_session": token}, timeout=30).status_code == 401
        assert httpx.get(c.base + "/api/account", headers=bearer, timeout=30).status_code == 401
