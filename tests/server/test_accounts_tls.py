"""Accounts behind TLS (``spite serve --tls-cert``: HAProxy terminates TLS and tells the server so):
the session's cookie is ``Secure``, and a passkey is made and used for the https origin, as browsers
see the site. Needs Debian's ``haproxy`` and ``openssl``, else skipped saying so."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest
from passkeys import SoftAuthenticator

from spite.server.cluster import find_haproxy
from tls_helpers import client_context, tls_server

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(find_haproxy() is None or shutil.which("openssl") is None,
                                 reason="HAProxy or openssl is not installed (apt-get install haproxy openssl): "
                                        "the TLS tests are skipped")]


def test_behind_tls_the_cookie_is_secure_and_passkeys_belong_to_the_https_origin(tmp_path: Path) -> None:
    with tls_server(tmp_path) as (base, _plain, cert):
        client = httpx.Client(base_url=base, headers={"origin": base}, verify=client_context(cert), timeout=30)
        begun = client.post("/api/account/register/begin", json={"handle": "ulla"}).json()
        assert begun["options"]["rp"]["id"] == "127.0.0.1"
        plain_origin = SoftAuthenticator(base.replace("https", "http", 1))  # a page served over plain http
        refused = client.post("/api/account/register/finish", json={
            "challengeId": begun["challengeId"], "credential": plain_origin.create(begun["options"])})
        assert refused.status_code == 400 and refused.json()["code"] == "account.passkey-refused"
        begun = client.post("/api/account/register/begin", json={"handle": "ulla"}).json()
        made = client.post("/api/account/register/finish", json={
            "challengeId": begun["challengeId"], "credential": SoftAuthenticator(base).create(begun["options"])})
        assert made.status_code == 201, made.text
        cookie = made.headers["set-cookie"].lower()
        assert "; secure" in cookie and "; httponly" in cookie and "samesite=strict" in cookie
        assert client.get("/api/account").json()["handle"] == "ulla"
