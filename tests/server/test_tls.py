"""Behind TLS (docs/deploy.md): ``spite serve --tls-cert`` puts HAProxy in front, terminating TLS with a
locally issued certificate. A game is played through it over ``wss://`` to its end; every answer
carries the security headers (HSTS among them); plain HTTP is redirected to https; and the
per-address limits see each player's own address (a forged ``X-Forwarded-For`` changes nothing),
not the proxy's. Needs Debian's ``haproxy`` and ``openssl``, else skipped saying so."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import httpx
import pytest
from server_helpers import Client
from test_protocol import play_random

from spite.server.cluster import find_haproxy
from tls_helpers import client_context, tls_server

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(find_haproxy() is None or shutil.which("openssl") is None,
                                 reason="HAProxy or openssl is not installed (apt-get install haproxy openssl): "
                                        "the TLS tests are skipped")]


def from_address(address: str, trust: Path) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address, verify=client_context(trust)),
                        timeout=30)


def test_a_game_over_wss_through_the_tls_proxy_with_each_players_own_address(tmp_path: Path) -> None:
    with tls_server(tmp_path, "--limit", "max_open_tables=1", "--limit", "rate=1000",
                    "--limit", "burst=2000") as (base, plain, cert):
        context = client_context(cert)
        with from_address("127.0.0.2", cert) as ann, from_address("127.0.0.3", cert) as bob:
            made = ann.post(base + "/api/tables", json={"preset": "short", "name": "ann",
                                                        "options": {"stock_size": 3}})
            assert made.status_code == 200, made.text
            headers = made.headers
            assert headers["strict-transport-security"].startswith("max-age=")
            assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
            assert headers["referrer-policy"] == "same-origin"
            assert "default-src 'self'" in headers["content-security-policy"]
            table = made.json()["table"]["id"]
            # the cap of one table counts 127.0.0.2 alone: its second is refused, even claiming another address
            second = ann.post(base + "/api/tables", json={"preset": "short", "name": "ann"},
                              headers={"X-Forwarded-For": "10.9.9.9"})
            assert second.status_code == 429 and second.json()["words"]["key"] == "lobby.too-many-tables"
            joined = bob.post(base + f"/api/tables/{table}/join", json={"name": "bob"})
            assert joined.status_code == 200
            assert bob.post(base + "/api/tables", json={"preset": "short", "name": "bob"}).status_code == 200
            # the page itself comes over https too
            assert "<script type=\"module\"" in ann.get(base + "/").text
        seats = {0: Client(base, table, "127.0.0.2", ssl=context), 1: Client(base, table, "127.0.0.3", ssl=context)}
        seats[0].hello(made.json()["token"])
        seats[1].hello(joined.json()["token"])
        assert play_random(seats, random.Random(8)) > 0
        over = seats[0].until("gameOver", timeout=30)
        assert seats[1].until("gameOver", timeout=30)["gameId"] == over["gameId"]
        for c in seats.values():
            c.close()
        # plain HTTP is sent to https
        moved = httpx.get(f"http://127.0.0.1:{plain}/t/{table}", follow_redirects=False)
        assert moved.status_code == 301 and moved.headers["location"] == f"https://127.0.0.1:{plain}/t/{table}"
