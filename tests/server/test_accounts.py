"""Accounts with passkeys (docs/accounts.md): made with a passkey and a unique handle, taking the
browser's player; signed in again with the passkey; another device linked by a short code, once and
in time; sessions in HttpOnly SameSite cookies that no other site can use; refusals with a code and
nothing changed."""

from __future__ import annotations

import json
import logging
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from passkeys import SoftAuthenticator
from server_helpers import InProcess, ServerThread
from websockets.sync.client import connect

from spite.server import ServerConfig, db
from spite.server.table.seats import player_id

ORIGIN = "http://testserver"


class Device:
    """One browser: its own cookies (the app's test client is shared, its jar is not) and its own
    passkeys; writes carry the page's ``Origin`` as a browser's fetch does."""

    def __init__(self, api: InProcess, origin: str = ORIGIN) -> None:
        self.api = api
        self.origin = origin
        self.jar: dict[str, str] = {}
        self.set_cookies: list[str] = []
        self.authenticator = SoftAuthenticator(ORIGIN)
        self.key = secrets.token_urlsafe(24)

    def request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        client = self.api.client
        client.cookies.clear()
        headers = {"origin": self.origin, **kw.pop("headers", {})}
        cookie = "; ".join(f"{k}={v}" for k, v in self.jar.items())
        if cookie:
            headers["cookie"] = cookie
        r = client.request(method, path, headers=headers, **kw)
        client.cookies.clear()
        self.set_cookies = r.headers.get_list("set-cookie")
        for line in self.set_cookies:
            name, _, rest = line.partition("=")
            value = rest.split(";", 1)[0].strip('"')
            if value and "max-age=0" not in line.lower():
                self.jar[name] = value
            else:
                self.jar.pop(name, None)
        return r

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.request("POST", path, json=body if body is not None else {}, **kw)

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.request("GET", path, **kw)

    def register(self, handle: str, *, key: bool = True, **create: Any) -> httpx.Response:
        begun = self.post("/api/account/register/begin", {"handle": handle, **({"playerKey": self.key} if key else {})})
        assert begun.status_code == 200, begun.text
        credential = self.authenticator.create(begun.json()["options"], **create)
        return self.post("/api/account/register/finish", {"challengeId": begun.json()["challengeId"],
                                                          "credential": credential})

    def sign_in(self, **get: Any) -> httpx.Response:
        begun = self.post("/api/account/signin/begin")
        assert begun.status_code == 200, begun.text
        credential = self.authenticator.get(begun.json()["options"], **get)
        return self.post("/api/account/signin/finish", {"challengeId": begun.json()["challengeId"],
                                                        "credential": credential})


def config(db_url: str, **kw: Any) -> ServerConfig:
    return ServerConfig(db_url=db_url, bot_workers=0, rate=1000, burst=2000, write_burst=100, max_open_tables=100,
                        **{"account_burst": 100.0, **kw})


@pytest.fixture
def api(db_url: str) -> Iterator[InProcess]:
    with InProcess(config(db_url)) as app:
        yield app


@pytest.fixture
def server(db_url: str) -> Iterator[ServerThread]:
    with ServerThread(config(db_url)) as srv:
        yield srv


def quick_play(device: Device, key: str | None = None) -> httpx.Response:
    return device.post("/api/quickplay", {"level": "random", "preset": "short", "name": "me",
                                          "playerKey": key or device.key})


def test_an_account_made_with_a_passkey_takes_the_browsers_player(api: InProcess) -> None:
    laptop = Device(api)
    made = laptop.register("Alice")
    assert made.status_code == 201, made.text
    account = made.json()
    assert account["handle"] == "Alice" and account["playerId"] == player_id(laptop.key)
    assert len(account["devices"]) == 1 and account["devices"][0]["current"] and len(account["passkeys"]) == 1
    cookie = next(c for c in laptop.set_cookies if c.startswith("spite_session="))
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower() and "secure" not in cookie.lower()
    assert laptop.get("/api/account").json()["handle"] == "Alice"
    # the games of the signed-in browser count for the account's player (its statistics and ratings)
    assert quick_play(laptop).json()["playerId"] == player_id(laptop.key)


def test_not_signed_in_is_401_with_a_code(api: InProcess) -> None:
    r = Device(api).get("/api/account")
    assert r.status_code == 401 and r.json()["code"] == "account.signed-out"
    forged = Device(api)
    forged.jar["spite_session"] = secrets.token_urlsafe(32)
    assert forged.get("/api/account").status_code == 401


def test_sign_out_then_sign_in_with_the_passkey(api: InProcess) -> None:
    laptop = Device(api)
    assert laptop.register("bob_b").status_code == 201
    assert laptop.post("/api/account/signout").status_code == 200
    assert laptop.get("/api/account").status_code == 401
    back = laptop.sign_in()
    assert back.status_code == 200, back.text
    assert back.json()["handle"] == "bob_b" and back.json()["playerId"] == player_id(laptop.key)
    assert laptop.get("/api/account").status_code == 200
    assert any(p["lastUsed"] for p in back.json()["passkeys"])


def test_an_accounts_player_key_alone_no_longer_plays_as_it(api: InProcess) -> None:
    laptop = Device(api)
    laptop.register("carol")
    laptop.post("/api/account/signout")
    refused = quick_play(laptop)  # the key that made the account, without its session
    assert refused.status_code == 403 and refused.json()["code"] == "account.sign-in"
    assert quick_play(Device(api)).status_code == 200  # guests stay welcome: any other key, or none
    assert Device(api).post("/api/quickplay", {"level": "random", "preset": "short"}).status_code == 200


def test_handles_are_normalised_unique_and_look_alikes_refused(api: InProcess) -> None:
    first = Device(api)
    assert first.register("Ａlice").json()["handle"] == "Alice"
    for handle, code in [("alice", "account.handle-taken"), ("AL1CE", "account.handle-taken"),
                         ("аlice", "account.bad-handle"),  # a Cyrillic а
                         ("p-1234", "account.reserved-handle"), ("Guest", "account.reserved-handle"),
                         ("ab", "account.bad-handle"), ("al ice", "account.bad-handle")]:
        r = Device(api).post("/api/account/register/begin", {"handle": handle})
        assert r.status_code in (409, 422) and r.json()["code"] == code, (handle, r.text)
    second = Device(api)
    r = second.post("/api/account/register/begin", {"handle": "dave", "playerKey": first.key})
    assert r.status_code == 409 and r.json()["code"] == "account.player-taken"


def test_a_replayed_assertion_is_refused(api: InProcess) -> None:
    laptop = Device(api)
    laptop.register("erin")
    laptop.post("/api/account/signout")
    begun = laptop.post("/api/account/signin/begin").json()
    body = {"challengeId": begun["challengeId"], "credential": laptop.authenticator.get(begun["options"])}
    assert laptop.post("/api/account/signin/finish", body).status_code == 200
    thief = Device(api)
    replay = thief.post("/api/account/signin/finish", body)  # the same answer again
    assert replay.status_code == 400 and replay.json()["code"] == "account.challenge"
    fresh = thief.post("/api/account/signin/begin").json()  # the old answer to a new challenge
    replay = thief.post("/api/account/signin/finish", {**body, "challengeId": fresh["challengeId"]})
    assert replay.status_code == 400 and replay.json()["code"] == "account.passkey-refused"
    assert thief.get("/api/account").status_code == 401 and "spite_session" not in thief.jar


@pytest.mark.parametrize("wrong", [{"origin": "http://evil.example"}, {"rp_id": "evil.example"}])
def test_a_wrong_origin_or_relying_party_is_refused(api: InProcess, wrong: dict[str, str]) -> None:
    laptop = Device(api)
    refused = laptop.register("frank", **wrong)
    assert refused.status_code == 400 and refused.json()["code"] == "account.passkey-refused"
    assert laptop.get("/api/account").status_code == 401
    assert laptop.register("frank").status_code == 201  # nothing was kept: the handle is still free
    laptop.post("/api/account/signout")
    refused = laptop.sign_in(**wrong)
    assert refused.status_code == 400 and refused.json()["code"] == "account.passkey-refused"
    assert laptop.get("/api/account").status_code == 401


def test_a_passkey_used_without_unlocking_it_is_refused(api: InProcess) -> None:
    laptop = Device(api)
    laptop.register("rosa")
    laptop.post("/api/account/signout")
    refused = laptop.sign_in(verified=False)  # touched, not unlocked: a stolen, locked device
    assert refused.status_code == 400 and refused.json()["code"] == "account.passkey-refused"
    assert laptop.get("/api/account").status_code == 401
    assert laptop.sign_in().status_code == 200


def test_a_removed_passkey_signs_in_no_more(api: InProcess) -> None:
    laptop = Device(api)
    laptop.register("grace")
    begun = laptop.post("/api/account/passkeys/begin").json()
    added = laptop.post("/api/account/passkeys/finish", {"challengeId": begun["challengeId"],
                                                         "credential": laptop.authenticator.create(begun["options"])})
    assert added.status_code == 201 and len(added.json()["passkeys"]) == 2
    first, second = added.json()["passkeys"]
    left = laptop.request("DELETE", f"/api/account/passkeys/{second['id']}")
    assert [p["id"] for p in left.json()["passkeys"]] == [first["id"]]
    last = laptop.request("DELETE", f"/api/account/passkeys/{first['id']}")
    assert last.status_code == 409 and last.json()["code"] == "account.last-passkey"
    laptop.post("/api/account/signout")
    removed = laptop.authenticator.credentials[1]
    refused = laptop.sign_in(credential=removed)
    assert refused.status_code == 400 and refused.json()["code"] == "account.unknown-passkey"
    assert laptop.sign_in(credential=laptop.authenticator.credentials[0]).status_code == 200


def test_a_device_is_linked_by_a_short_code_once_and_in_time(api: InProcess) -> None:
    laptop, phone, other = Device(api), Device(api), Device(api)
    laptop.register("heidi")
    link = laptop.post("/api/account/link").json()
    assert len(link["code"]) == 9 and link["code"][4] == "-" and link["expiresIn"] == 300
    assert link["url"].endswith("#link=" + link["code"]) and link["qr"].lstrip().startswith("<?xml")
    linked = phone.post("/api/account/link/redeem", {"code": link["code"].lower().replace("-", " ")})
    assert linked.status_code == 200, linked.text
    assert linked.json()["playerId"] == player_id(laptop.key) and "session" not in linked.json()
    assert len(linked.json()["devices"]) == 2
    # the phone plays as the account's player, whatever key it holds itself
    assert quick_play(phone).json()["playerId"] == player_id(laptop.key)
    used = other.post("/api/account/link/redeem", {"code": link["code"]})
    assert used.status_code == 400 and used.json()["code"] == "account.link-used"
    unknown = other.post("/api/account/link/redeem", {"code": "ABCD-EFGH"})
    assert unknown.status_code == 400 and unknown.json()["code"] == "account.link-unknown"
    late = laptop.post("/api/account/link").json()["code"]
    api.run(api.manager.store.transact(lambda c: c.execute(sa.update(db.link_codes).values(
        expires_at=time.time() - 1).where(db.link_codes.c.used_at.is_(None)))))
    expired = other.post("/api/account/link/redeem", {"code": late})
    assert expired.status_code == 400 and expired.json()["code"] == "account.link-expired"
    assert other.get("/api/account").status_code == 401


def test_the_terminal_gets_its_session_in_the_body_and_sends_it_as_a_bearer(api: InProcess) -> None:
    laptop, terminal = Device(api), Device(api)
    laptop.register("ivan")
    code = laptop.post("/api/account/link").json()["code"]
    linked = terminal.post("/api/account/link/redeem", {"code": code, "token": True, "device": "terminal on box"})
    session = linked.json()["session"]
    assert not terminal.set_cookies and session.startswith("s.")
    bearer = {"authorization": f"Bearer {session}", "origin": ""}
    me = terminal.get("/api/account", headers=bearer).json()
    assert me["handle"] == "ivan" and any(d["kind"] == "terminal" and d["name"] == "terminal on box"
                                          for d in me["devices"])
    played = terminal.post("/api/quickplay", {"level": "random", "preset": "short", "playerKey": terminal.key},
                           headers=bearer)
    assert played.json()["playerId"] == player_id(laptop.key)


def test_no_other_site_can_use_the_cookie(api: InProcess) -> None:
    laptop = Device(api)
    laptop.register("judy")
    laptop.origin = "http://evil.example"  # a form or script of another site, the browser adding the cookie
    refused = laptop.post("/api/account/link")
    assert refused.status_code == 403 and refused.json()["code"] == "account.cross-site"
    assert laptop.post("/api/account/signout-everywhere").status_code == 403
    assert quick_play(laptop).status_code == 403  # the key is the account's, and the cookie does not count
    laptop.origin = ORIGIN
    assert laptop.get("/api/account").status_code == 200  # still signed in: nothing changed


def test_sign_out_everywhere_and_remove_a_device(api: InProcess) -> None:
    laptop, phone, tablet = Device(api), Device(api), Device(api)
    laptop.register("karl")
    for device in (phone, tablet):
        device.post("/api/account/link/redeem", {"code": laptop.post("/api/account/link").json()["code"]})
    devices = laptop.get("/api/account").json()["devices"]
    assert len(devices) == 3
    phone_id = next(d["id"] for d in phone.get("/api/account").json()["devices"] if d["current"])
    assert len(laptop.request("DELETE", f"/api/account/devices/{phone_id}").json()["devices"]) == 2
    assert phone.get("/api/account").status_code == 401
    assert tablet.post("/api/account/signout-everywhere").json() == {"signedOut": 2}
    assert laptop.get("/api/account").status_code == 401 and tablet.get("/api/account").status_code == 401


def test_the_cookie_is_secure_behind_tls(db_url: str) -> None:
    with InProcess(config(db_url, account_origin="https://spite.example")) as app:
        laptop = Device(app, origin="https://spite.example")
        laptop.authenticator.origin = "https://spite.example"
        made = laptop.register("leo")
        assert made.status_code == 201, made.text
        cookie = next(c for c in laptop.set_cookies if c.startswith("spite_session="))
        assert "; secure" in cookie.lower()
        assert "rp" not in made.json()


def test_a_flood_of_sign_in_attempts_is_refused(db_url: str) -> None:
    with InProcess(config(db_url, account_burst=3.0, account_rate=0.01)) as app:
        device = Device(app)
        answers = [device.post("/api/account/signin/begin") for _ in range(4)]
        assert [r.status_code for r in answers] == [200, 200, 200, 429]
        assert answers[-1].json()["code"] == "account.too-many" and int(answers[-1].headers["retry-after"]) >= 1
        redeem = device.post("/api/account/link/redeem", {"code": "ABCD-EFGH"})
        assert redeem.status_code == 429  # guessing link codes shares the budget


def test_no_code_token_or_credential_in_a_log(api: InProcess, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    laptop, phone = Device(api), Device(api)
    made = laptop.register("mia")
    code = laptop.post("/api/account/link").json()["code"]
    phone.post("/api/account/link/redeem", {"code": code, "token": True})
    laptop.sign_in()
    text = caplog.text
    secrets_seen = [code, code.replace("-", ""), laptop.jar["spite_session"],
                    made.json()["passkeys"][0]["id"], laptop.authenticator.credentials[0].id.hex()]
    assert not [s for s in secrets_seen if s in text]


def test_any_signed_in_device_takes_the_accounts_seat_by_its_hello(server: ServerThread) -> None:
    """A game begun on the laptop goes on on the phone: the phone's WebSocket carries its session,
    and its hello asks for the account's seat instead of giving the seat's token."""
    base = server.base
    laptop, phone = httpx.Client(base_url=base, headers={"origin": base}), httpx.Client(base_url=base,
                                                                                      headers={"origin": base})
    key = secrets.token_urlsafe(24)
    begun = laptop.post("/api/account/register/begin", json={"handle": "nina", "playerKey": key}).json()
    credential = SoftAuthenticator(base).create(begun["options"])
    assert laptop.post("/api/account/register/finish", json={"challengeId": begun["challengeId"],
                                                             "credential": credential}).status_code == 201
    joined = laptop.post("/api/quickplay", json={"level": "random", "preset": "short", "playerKey": key}).json()
    table = joined["table"]["id"]
    code = laptop.post("/api/account/link").json()["code"]
    assert phone.post("/api/account/link/redeem", json={"code": code}).status_code == 200
    url = base.replace("http", "ws", 1) + f"/ws/{table}"

    def hello(headers: dict[str, str]) -> dict[str, Any]:
        with connect(url, open_timeout=10, additional_headers=headers) as ws:
            ws.send(json.dumps({"type": "hello", "account": True}))
            return json.loads(ws.recv(10))  # type: ignore[no-any-return]

    cookie = f"spite_session={phone.cookies['spite_session']}"
    welcome = hello({"cookie": cookie, "origin": base})
    assert welcome["type"] == "welcome" and welcome["seat"] == joined["seat"], welcome
    for headers in ({}, {"cookie": cookie, "origin": "http://evil.example"}):  # no session, or another site's
        refused = hello(headers)
        assert refused["type"] == "error" and refused["code"] == "wrong-token"
        assert refused["words"]["key"] == "error.wrong-token.account"


def spite(config_home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The ``spite`` command with its own config folder (the terminal's player key and sessions)."""
    return subprocess.run([sys.executable, "-m", "spite", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "XDG_CONFIG_HOME": str(config_home)})


def test_the_terminal_signs_in_with_spite_login_and_plays_as_the_account(server: ServerThread, tmp_path: Path) -> None:
    base = server.base
    laptop = httpx.Client(base_url=base, headers={"origin": base})
    key = secrets.token_urlsafe(24)
    begun = laptop.post("/api/account/register/begin", json={"handle": "olga", "playerKey": key}).json()
    laptop.post("/api/account/register/finish", json={"challengeId": begun["challengeId"],
                                                      "credential": SoftAuthenticator(base).create(begun["options"])})
    home = tmp_path / "config"
    wrong = spite(home, "login", base, "--code", "ABCD-EFGH")
    assert wrong.returncode == 2 and wrong.stderr == "spite: There is no such link code.\n"
    assert not (home / "spite" / "sessions.json").exists()

    code = laptop.post("/api/account/link").json()["code"]
    signed = spite(home, "login", base + "/t/whatever", stdin=code + "\n")  # any link of the server; the code asked for
    assert signed.returncode == 0, signed.stderr
    assert signed.stdout.strip() == f"Signed in to {base} as olga: this terminal plays as your account there."
    kept = home / "spite" / "sessions.json"
    assert kept.stat().st_mode & 0o077 == 0  # the user's alone
    devices = laptop.get("/api/account").json()["devices"]
    assert any(d["kind"] == "terminal" and d["name"].startswith("terminal on ") for d in devices)

    # the terminal's own player key is not the account's: with the session, its seat counts for the account
    table = httpx.post(base + "/api/tables", json={"preset": "short", "join": False}).json()["id"]
    joined = subprocess.run(
        [sys.executable, "-c", "import sys; from spite.tui.link import join_table; "
         "print(join_table(sys.argv[1], sys.argv[2], 'olga')['playerId'])", base, table],
        capture_output=True, text=True, timeout=60, env={**os.environ, "XDG_CONFIG_HOME": str(home)})
    assert joined.stdout.strip() == player_id(key), joined.stderr

    # a game begun in the browser goes on in the terminal: --connect without a token takes the account's seat
    begun_here = laptop.post("/api/quickplay", json={"level": "random", "preset": "short", "playerKey": key}).json()
    seated = subprocess.run(
        [sys.executable, "-c", "import sys; from spite.tui.link import connect_table; "
         "print(connect_table(sys.argv[1], None).seat)", f"{base}/t/{begun_here['table']['id']}"],
        capture_output=True, text=True, timeout=60, env={**os.environ, "XDG_CONFIG_HOME": str(home)})
    assert seated.stdout.strip() == str(begun_here["seat"]), seated.stderr

    again = spite(home, "login", base, "--code", code)  # the code worked once
    assert again.returncode == 2 and "used already" in again.stderr
    out = spite(home, "logout", base, "--lang", "de")
    assert out.returncode == 0 and out.stdout.strip() == f"Bei {base} abgemeldet."
    assert len(laptop.get("/api/account").json()["devices"]) == 1  # the server forgot the terminal's session
    assert spite(home, "logout", base).stdout.strip() == f"This terminal is not signed in to {base}."


def test_the_leaderboard_and_the_player_page_show_the_handle(api: InProcess) -> None:
    laptop = Device(api)
    laptop.register("Quentin")
    pid = player_id(laptop.key)
    api.run(api.manager.store.transact(lambda c: c.execute(sa.insert(db.ratings).values(
        player_id=pid, group="classic", name="q from the laptop", mu=30.0, sigma=3.0, games=20,
        updated_at=time.time()))))
    board = laptop.get("/api/ratings?group=classic").json()["players"]
    assert [(p["playerId"], p["handle"], p["name"]) for p in board] == [(pid, "Quentin", "q from the laptop")]
    page = laptop.get("/api/players/Quentin/ratings")  # a handle names the player for good
    assert page.status_code == 200 and page.json()["playerId"] == pid and page.json()["handle"] == "Quentin"


def test_serve_refuses_an_origin_that_is_no_sites_address(tmp_path: Path) -> None:
    for origin in ("ftp://spite.example", "https://spite.example/play", "spite.example"):
        refused = spite(tmp_path, "serve", "--origin", origin, "--db", f"sqlite:///{tmp_path / 'x.db'}")
        assert refused.returncode == 2 and refused.stderr.startswith("spite: --origin is the site's address"), origin
        assert refused.stderr.count("\n") == 1


def test_a_linked_device_finds_the_seat_its_account_took_on_another(api: InProcess) -> None:
    laptop, phone = Device(api), Device(api)
    laptop.register("sven")
    phone.post("/api/account/link/redeem", {"code": laptop.post("/api/account/link").json()["code"]})
    joined = quick_play(laptop).json()
    table = joined["table"]["id"]
    found = phone.get(f"/api/account/seat?table={table}").json()
    assert (found["seat"], found["token"]) == (joined["seat"], joined["token"])
    guest_table = quick_play(Device(api)).json()["table"]["id"]  # a guest's table: no seat of the account
    assert phone.get(f"/api/account/seat?table={guest_table}").json()["seat"] is None
    assert Device(api).get(f"/api/account/seat?table={table}").status_code == 401


def test_a_persons_own_data_with_the_account_and_deleting_it_ends_the_account(api: InProcess) -> None:
    laptop, phone = Device(api), Device(api)
    laptop.register("tilda")
    phone.post("/api/account/link/redeem", {"code": laptop.post("/api/account/link").json()["code"]})
    refused = Device(api).post("/api/players/me/export", {"playerKey": laptop.key})  # the key alone, no more
    assert refused.status_code == 403 and refused.json()["code"] == "account.sign-in"
    mine = phone.post("/api/players/me/export", {"playerKey": phone.key}).json()  # the phone's own key: the account's
    assert mine["account"]["handle"] == "tilda" and len(mine["account"]["devices"]) == 2
    assert "session" not in json.dumps(mine) and "public_key" not in json.dumps(mine)
    assert phone.post("/api/players/me/delete", {"playerKey": phone.key}).status_code == 200
    assert laptop.get("/api/account").status_code == 401  # the account went with its player
    assert Device(api).register("tilda").status_code == 201  # and its handle is free again


def test_a_seat_found_by_a_seek_is_the_accounts_on_its_other_devices(api: InProcess) -> None:
    laptop, phone, guest = Device(api), Device(api), Device(api)
    laptop.register("uwe")
    phone.post("/api/account/link/redeem", {"code": laptop.post("/api/account/link").json()["code"]})
    body = {"preset": "short", "rated": False, "computerAfter": None}
    mine = laptop.post("/api/seeks", {**body, "name": "uwe", "playerKey": laptop.key}).json()
    guest.post("/api/seeks", {**body, "name": "gus", "playerKey": guest.key})
    matched = laptop.get(f"/api/seeks/{mine['id']}?wait=5").json()["matched"]
    found = phone.get(f"/api/account/seat?table={matched['table']}").json()
    assert (found["seat"], found["token"]) == (matched["seat"], matched["token"])
