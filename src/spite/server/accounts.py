"""Accounts with passkeys (docs/accounts.md): one player on every device.

An account is a unique handle, the player id it owns (the browser's player key that made it, so its
games, statistics and ratings stay with it), its passkeys (WebAuthn: the server keeps each public key
and signature counter) and its signed-in devices (one session each: the server keeps a hash of the
session's token). A device signs in with a passkey, or is linked by a short code that a signed-in
device shows, good for a few minutes and once (the terminal app's ``spite login URL`` too).

A browser holds its session in an HttpOnly, SameSite=Strict cookie (Secure behind TLS); the terminal
app sends it as ``Authorization: Bearer``. A request that changes anything counts a cookie's session
only when it comes from the page's own origin (``Origin``), so no other site can act in a signed-in
person's name. Sign-in, registration and link codes are limited per address and per account.

Every step of a ceremony is a database row (challenges, link codes, sessions): with several workers,
a session made at one is good at the other.

>>> clean_handle(" Ａlice ")  # normalised (NFKC): full-width letters are the ASCII ones
'Alice'
>>> handle_key("Al1ce") == handle_key("alice") == handle_key("ALICE")  # look-alikes are one handle
True
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import logging
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol
from urllib.parse import urlsplit

import sqlalchemy as sa
from fastapi import FastAPI, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from spite.server import db
from spite.server.limits import RateLimiter, client_address
from spite.server.protocol import PLAYER_KEY, RESERVED_NAME_PREFIXES
from spite.server.table.seats import LobbyError, hash_token, player_id

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

    from spite.server.config import ServerConfig
    from spite.server.store import Store


class Manager(Protocol):
    """What accounts need of the server's manager (``app.state.manager``): its store, and the check that a
    player id is one the server will serve (a ban refuses it). A protocol, so that this module stays below
    the manager, which dispatches the sockets that carry a session."""

    @property
    def store(self) -> Store: ...

    def check_player(self, player_id: str | None) -> None: ...

__all__ = ["SESSION_COOKIE", "AccountError", "Session", "clean_handle", "handle_key", "install", "player_for",
           "remember_seat", "remember_seek_seat", "seat_token", "session_of"]

log = logging.getLogger("spite.server.accounts")

SESSION_COOKIE = "spite_session"
"""The cookie that holds a browser's session token (HttpOnly: no script of the page reads it)."""

_HANDLE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}")
_RESERVED_HANDLES = frozenset({"admin", "administrator", "bot", "computer", "guest", "moderator", "operator",
                               "root", "spite", "system"})
_LOOKALIKES = str.maketrans({"0": "o", "1": "l", "i": "l", "_": "-"})
"""Characters read as one another in many fonts (after case folding): such handles are one handle."""

_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Link codes: no 0/O, 1/I/L to misread (32 letters: 8 of them are 40 bits)."""
_CODE_LENGTH = 8
_CHALLENGE_SECONDS = 300.0
_TOUCH_EVERY = 600.0
"""A session's ``last_seen`` is written at most this often (not on every request)."""


class AccountError(LobbyError):
    """A refused account request: ``code`` (``account.…``) names the reason for the page and the
    terminal, which word it from their catalogues."""

    def __init__(self, message: str, status: int, code: str, retry_after: float | None = None,
                 **params: str | int) -> None:
        super().__init__(message, status, code, **params)
        self.code = code
        self.retry_after = retry_after


def clean_handle(raw: str) -> str:
    """A handle as it is kept and shown: NFKC-normalised, trimmed; 3-20 ASCII letters, digits, ``-``
    or ``_``, beginning with a letter (any other character could be a look-alike of one of these),
    and neither a reserved word nor beginning with a reserved prefix."""
    handle = unicodedata.normalize("NFKC", raw).strip()
    if not _HANDLE.fullmatch(handle):
        raise AccountError("a handle is 3 to 20 letters (a-z), digits, - or _, beginning with a letter", 422,
                           "account.bad-handle")
    folded = handle.casefold()
    if folded.startswith(RESERVED_NAME_PREFIXES) or handle_key(handle) in {handle_key(r) for r in _RESERVED_HANDLES}:
        raise AccountError(f"the handle {handle} is reserved", 422, "account.reserved-handle", handle=handle)
    return handle


def handle_key(handle: str) -> str:
    """What keeps handles apart: case folded, and characters that look alike taken as one."""
    return handle.casefold().translate(_LOOKALIKES)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _code_hash(code: str) -> str:
    return hashlib.sha256(f"spite-link:{code}".encode()).hexdigest()


def normalize_code(text: str) -> str:
    """A link code as typed (any case, with spaces or dashes) as it is kept.

    >>> normalize_code(" abcd-efgh ")
    'ABCDEFGH'
    """
    return "".join(ch for ch in text.upper() if ch.isalnum())


def new_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(_CODE_LENGTH))


def shown_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def qr_svg(text: str) -> str:
    """``text`` as a QR code (an SVG document, black squares on the page's background)."""
    import qrcode  # type: ignore[import-untyped]
    import qrcode.image.svg  # type: ignore[import-untyped]

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue().decode("utf-8")


@dataclass(frozen=True)
class Session:
    """A signed-in device: its session's id, its account, the player id the account owns."""

    id: str
    account_id: str
    handle: str
    player_id: str
    kind: str


# ---------------------------------------------------------------------------------------------- requests
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


DEVICE_NAME = Field("", max_length=64, pattern=r"^[^\x00-\x1f\x7f]*$")


class RegisterBegin(_Body):
    handle: str = Field(max_length=80)
    playerKey: PLAYER_KEY | None = Field(None, description="This browser's player key: the account takes its "
                                         "player id (its games, statistics and ratings).")


class CeremonyFinish(_Body):
    challengeId: str = Field(max_length=40)
    credential: dict[str, Any]
    device: str = DEVICE_NAME


class LinkRedeem(_Body):
    code: str = Field(max_length=20)
    device: str = DEVICE_NAME
    token: bool = Field(False, strict=True, description="Answer the session's token in the body (an app that "
                        "keeps it itself, the terminal) instead of setting the cookie.")


# ---------------------------------------------------------------------------------------------- sessions
def _presented(conn: HTTPConnection) -> tuple[str | None, bool]:
    """The session token a request carries, and whether it came in the cookie."""
    auth = conn.headers.get("authorization", "")
    if auth.startswith("Bearer ") and auth[7:].strip().startswith("s."):
        return auth[7:].strip()[2:], False
    cookie = conn.cookies.get(SESSION_COOKIE)
    return (cookie, True) if cookie else (None, False)


def origin_of(conn: HTTPConnection, config: ServerConfig) -> str:
    """The page's origin: the configured one, else the request's own scheme and host."""
    if config.account_origin:
        return config.account_origin.rstrip("/")
    scheme = "https" if conn.url.scheme in ("https", "wss") else "http"
    return f"{scheme}://{conn.headers.get('host', 'localhost')}"


def same_origin(conn: HTTPConnection, config: ServerConfig) -> bool:
    """The request comes from the page itself (its ``Origin``): a write with a cookie must."""
    return conn.headers.get("origin", "").rstrip("/") == origin_of(conn, config)


def _lookup(c: sa.Connection, token: str, now: float) -> tuple[Session, float] | None:
    s, a = db.sessions, db.accounts
    row = c.execute(sa.select(s.c.id, s.c.account_id, s.c.kind, s.c.last_seen, a.c.handle, a.c.player_id)
                    .join(a, a.c.id == s.c.account_id)
                    .where(s.c.token_hash == hash_token(token), s.c.expires_at > now)).first()
    if row is None:
        return None
    return Session(row.id, row.account_id, row.handle, row.player_id, row.kind), row.last_seen


async def session_of(conn: HTTPConnection, config: ServerConfig, *, writing: bool) -> Session | None:
    """The signed-in session a request or WebSocket carries, or ``None``. For a write (and a
    WebSocket), a cookie counts only from the page's own origin: another site's form or script gets
    no session of the person's (cross-site request forgery)."""
    token, cookie = _presented(conn)
    if token is None or len(token) > 100:
        return None
    if cookie and writing and not same_origin(conn, config):
        return None
    manager: Manager = conn.app.state.manager
    now = time.time()
    found: tuple[Session, float] | None = await manager.store.read(lambda c: _lookup(c, token, now))
    if found is None:
        return None
    session, last_seen = found
    if now - last_seen > _TOUCH_EVERY:
        s = db.sessions
        await manager.store.transact(lambda c: c.execute(sa.update(s).where(s.c.id == session.id)
                                                         .values(last_seen=now)))
    return session


async def player_for(conn: HTTPConnection, config: ServerConfig, key: str | None) -> str | None:
    """The player id a lobby request plays as: a signed-in device's account's; else its player key's,
    unless an account owns that player (then only its signed-in devices play as it: 403)."""
    session = await session_of(conn, config, writing=True)
    conn.state.account_session = session
    if session is not None:
        return session.player_id
    if key is None:
        return None
    pid = player_id(key)
    manager: Manager = conn.app.state.manager
    owned = await manager.store.read(lambda c: c.execute(
        sa.select(db.accounts.c.id).where(db.accounts.c.player_id == pid)).first())
    if owned is not None:
        raise AccountError("this player belongs to an account: sign in to play as it", 403, "account.sign-in")
    return pid


def export_account(c: sa.Connection, pid: str) -> dict[str, Any]:
    """What is stored about the account that owns player ``pid`` (for a person's own data): nothing
    secret (no hash of a session token, no public key)."""
    a, p, s = db.accounts, db.passkeys, db.sessions
    account = c.execute(sa.select(a).where(a.c.player_id == pid)).mappings().first()
    if account is None:
        return {}
    keys = c.execute(sa.select(p.c.name, p.c.created_at, p.c.last_used).where(p.c.account_id == account["id"]))
    devices = c.execute(sa.select(s.c.kind, s.c.name, s.c.created_at, s.c.last_seen)
                        .where(s.c.account_id == account["id"]))
    return {"account": {"handle": account["handle"], "createdAt": account["created_at"],
                        "passkeys": [dict(r._mapping) for r in keys], "devices": [dict(r._mapping) for r in devices]}}


def delete_account(c: sa.Connection, pid: str) -> bool:
    """Delete the account that owns player ``pid``, with its passkeys, sessions, link codes and seats
    (False: no account owns it)."""
    a = db.accounts
    found = c.execute(sa.select(a.c.id).where(a.c.player_id == pid)).scalar()
    if found is None:
        return False
    for table in (db.passkeys, db.sessions, db.link_codes, db.account_seats):  # (SQLite: no cascade unless asked)
        c.execute(sa.delete(table).where(table.c.account_id == found))
    c.execute(sa.delete(a).where(a.c.id == found))
    return True


_SEAT_DAYS = 7.0
"""How long an account's seat token is kept for its other devices (a table long over needs none)."""


async def remember_seat(conn: HTTPConnection, table_id: str, seat: int, token: str) -> None:
    """Keep the seat a signed-in device sat down at (:func:`player_for` found its session), so that
    any device of the account may take it: a hello with ``account``."""
    session: Session | None = getattr(conn.state, "account_session", None)
    if session is None:
        return
    manager: Manager = conn.app.state.manager
    s = db.account_seats

    def put(c: sa.Connection) -> None:
        now = time.time()
        c.execute(sa.delete(s).where(s.c.at < now - _SEAT_DAYS * 86400))
        c.execute(sa.delete(s).where(s.c.account_id == session.account_id, s.c.table_id == table_id, s.c.seat == seat))
        c.execute(sa.insert(s).values(account_id=session.account_id, table_id=table_id, seat=seat, token=token, at=now))

    await manager.store.transact(put)


async def remember_seek_seat(conn: HTTPConnection, config: ServerConfig, pid: str, table_id: str, seat: int,
                             token: str) -> None:
    """A paired seek's seat, kept for the account like :func:`remember_seat` when the device asking
    is signed in to the account the seek plays for."""
    session = await session_of(conn, config, writing=False)
    if session is not None and session.player_id == pid:
        conn.state.account_session = session
        await remember_seat(conn, table_id, seat, token)


async def seat_token(store: Any, session: Session | None, table_id: str) -> str | None:
    """The token of the seat ``session``'s account holds at ``table_id`` (its first), or ``None``."""
    if session is None:
        return None
    s = db.account_seats
    token: str | None = await store.read(lambda c: c.execute(
        sa.select(s.c.token).where(s.c.account_id == session.account_id, s.c.table_id == table_id)
        .order_by(s.c.seat).limit(1)).scalar())
    return token


class _Passkeys:
    """The passkey library, imported at a server's first passkey ceremony and not at its start: with the
    certificate and ASN.1 parsers under it, it was a tenth of a second of every start, and most of a
    server's players never make an account."""

    def __init__(self) -> None:
        import webauthn
        from webauthn.helpers import options_to_json_dict, structs
        from webauthn.helpers.exceptions import WebAuthnException

        self.webauthn = webauthn
        self.structs = structs
        self.to_json = options_to_json_dict
        self.refused = WebAuthnException

    def selection(self) -> Any:
        """A passkey kept on the device (a discoverable credential), unlocked by the person."""
        required = self.structs.UserVerificationRequirement.REQUIRED
        return self.structs.AuthenticatorSelectionCriteria(
            resident_key=self.structs.ResidentKeyRequirement.REQUIRED, user_verification=required)


@functools.cache
def _passkeys() -> _Passkeys:
    return _Passkeys()


# ---------------------------------------------------------------------------------------------- the routes
def install(app: FastAPI, config: ServerConfig) -> None:
    """Add ``/api/account/…`` to ``app``."""
    by_address = RateLimiter(config.account_rate, config.account_burst)
    by_account = RateLimiter(config.account_rate, config.account_burst)
    app.state.limiters["accounts"] = by_address

    def manager_of(request: Request) -> Manager:
        return request.app.state.manager  # type: ignore[no-any-return]

    def limit(limiter: RateLimiter, key: str) -> None:
        wait = limiter.take(key)
        if wait > 0:
            raise AccountError("too many attempts: wait a little", 429, "account.too-many", retry_after=wait)

    def relying_party(request: Request) -> tuple[str, str]:
        origin = origin_of(request, config)
        return urlsplit(origin).hostname or "localhost", origin

    async def signed_in(request: Request, *, writing: bool = True) -> Session:
        session = await session_of(request, config, writing=writing)
        if session is None:
            if writing and _presented(request)[1] and not same_origin(request, config):
                raise AccountError("a signed-in request must come from this server's own page", 403,
                                   "account.cross-site")
            raise AccountError("not signed in", 401, "account.signed-out")
        return session

    def cookie(request: Request, response: JSONResponse, token: str | None) -> JSONResponse:
        secure = origin_of(request, config).startswith("https:")
        if token is None:
            response.delete_cookie(SESSION_COOKIE, path="/", secure=secure, httponly=True, samesite="strict")
        else:
            response.set_cookie(SESSION_COOKIE, token, max_age=int(config.session_days * 86400), path="/",
                                secure=secure, httponly=True, samesite="strict")
        return response

    def new_session(c: sa.Connection, account_id: str, kind: str, name: str, now: float) -> str:
        token = secrets.token_urlsafe(32)
        c.execute(sa.delete(db.sessions).where(db.sessions.c.expires_at < now))  # long over: nothing to keep
        c.execute(sa.insert(db.sessions).values(
            id=secrets.token_hex(8), token_hash=hash_token(token), account_id=account_id, kind=kind,
            name=name.strip()[:64] or kind, created_at=now, last_seen=now,
            expires_at=now + config.session_days * 86400))
        return token

    def device_name(request: Request, given: str) -> str:
        if given.strip():
            return given.strip()[:64]
        agent = request.headers.get("user-agent", "")
        for word in ("Firefox", "Edg", "Chrome", "Safari"):
            if word in agent:
                return {"Edg": "Edge"}.get(word, word)
        return "browser"

    def account_view(c: sa.Connection, session: Session) -> dict[str, Any]:
        s, p = db.sessions, db.passkeys
        devices = c.execute(sa.select(s).where(s.c.account_id == session.account_id, s.c.expires_at > time.time())
                            .order_by(s.c.created_at)).mappings().all()
        keys = c.execute(sa.select(p).where(p.c.account_id == session.account_id)
                         .order_by(p.c.created_at)).mappings().all()
        return {"handle": session.handle, "playerId": session.player_id,
                "devices": [{"id": d["id"], "kind": d["kind"], "name": d["name"], "createdAt": d["created_at"],
                             "lastSeen": d["last_seen"], "current": d["id"] == session.id} for d in devices],
                "passkeys": [{"id": k["id"], "name": k["name"], "createdAt": k["created_at"],
                              "lastUsed": k["last_used"]} for k in keys]}

    async def answer(request: Request, session: Session, token: str | None = None, *, body_token: bool = False,
                     status: int = 200) -> JSONResponse:
        view = await manager_of(request).store.read(lambda c: account_view(c, session))
        if body_token and token is not None:
            return JSONResponse({**view, "session": "s." + token}, status_code=status)
        response = JSONResponse(view, status_code=status)
        return cookie(request, response, token) if token is not None else response

    def session_by_token(c: sa.Connection, token: str) -> Session:
        found = _lookup(c, token, time.time())
        assert found is not None
        return found[0]

    def put_challenge(c: sa.Connection, kind: str, challenge: bytes, now: float, **values: Any) -> str:
        ch = db.account_challenges
        c.execute(sa.delete(ch).where(ch.c.expires_at < now))
        cid = secrets.token_hex(12)
        c.execute(sa.insert(ch).values(id=cid, kind=kind, challenge=_b64(challenge),
                                       expires_at=now + _CHALLENGE_SECONDS, **values))
        return cid

    def take_challenge(c: sa.Connection, cid: str, kind: str) -> dict[str, Any]:
        """The challenge, deleted as it is read: each is answered once (a replayed answer finds none)."""
        ch = db.account_challenges
        row = c.execute(sa.select(ch).where(ch.c.id == cid, ch.c.kind == kind)).mappings().first()
        gone = c.execute(sa.delete(ch).where(ch.c.id == cid, ch.c.kind == kind)).rowcount if row else 0
        if row is None or gone != 1 or row["expires_at"] < time.time():
            raise AccountError("this sign-in has expired or was used already: start again", 400,
                               "account.challenge")
        return dict(row)

    # ------------------------------------------------------------------ the account
    @app.get("/api/account")
    async def get_account(request: Request) -> JSONResponse:
        """The signed-in account: handle, player id, devices and passkeys; 401 when not signed in."""
        return await answer(request, await signed_in(request, writing=False))

    @app.get("/api/account/seat")
    async def account_seat(request: Request, table: str = Query(max_length=32)) -> dict[str, Any]:
        """The seat the account holds at ``table`` and its token (sat down at from another of its
        devices), so this device plays it on; ``seat`` null when it holds none."""
        session = await signed_in(request, writing=False)
        s = db.account_seats
        row = await manager_of(request).store.read(lambda c: c.execute(
            sa.select(s.c.seat, s.c.token).where(s.c.account_id == session.account_id, s.c.table_id == table)
            .order_by(s.c.seat).limit(1)).first())
        return {"table": table, "seat": row.seat if row else None, "token": row.token if row else None}

    @app.post("/api/account/register/begin")
    async def register_begin(request: Request, body: RegisterBegin) -> dict[str, Any]:
        """Start making an account: the handle is checked, and the passkey's creation options answered."""
        limit(by_address, client_address(request.scope))
        handle = clean_handle(body.handle)
        pid = player_id(body.playerKey) if body.playerKey else player_id(secrets.token_urlsafe(32))
        manager_of(request).check_player(pid)
        a = db.accounts

        def check(c: sa.Connection) -> None:
            if c.execute(sa.select(a.c.id).where(a.c.handle_key == handle_key(handle))).first() is not None:
                raise AccountError(f"the handle {handle} is taken", 409, "account.handle-taken", handle=handle)
            if c.execute(sa.select(a.c.id).where(a.c.player_id == pid)).first() is not None:
                raise AccountError("this player has an account already: sign in", 409, "account.player-taken")

        await manager_of(request).store.read(check)
        rp_id, _origin = relying_party(request)
        user = secrets.token_bytes(15)  # the account id: "a-" and 30 hex digits
        passkeys = _passkeys()
        options = passkeys.webauthn.generate_registration_options(
            rp_id=rp_id, rp_name="spite", user_name=handle, user_display_name=handle, user_id=user,
            authenticator_selection=passkeys.selection())
        now = time.time()
        cid = await manager_of(request).store.transact(lambda c: put_challenge(
            c, "register", options.challenge, now, account_id="a-" + user.hex(), handle=handle, player_id=pid))
        return {"challengeId": cid, "options": passkeys.to_json(options)}

    def verified_registration(request: Request, body: CeremonyFinish, challenge: str) -> Any:
        rp_id, origin = relying_party(request)
        passkeys = _passkeys()
        try:
            return passkeys.webauthn.verify_registration_response(
                credential=body.credential, expected_challenge=_unb64(challenge), expected_rp_id=rp_id,
                expected_origin=origin, require_user_verification=True)
        except (passkeys.refused, ValueError, KeyError, TypeError) as exc:
            log.info("a passkey registration was refused: %s", type(exc).__name__)
            raise AccountError("the passkey was refused", 400, "account.passkey-refused") from None

    @app.post("/api/account/register/finish")
    async def register_finish(request: Request, body: CeremonyFinish) -> JSONResponse:
        """Make the account with the new passkey; this browser is signed in (the session's cookie)."""
        limit(by_address, client_address(request.scope))
        store = manager_of(request).store
        row = await store.transact(lambda c: take_challenge(c, body.challengeId, "register"))
        verified = verified_registration(request, body, row["challenge"])
        name = device_name(request, body.device)

        def make(c: sa.Connection) -> str:
            a = db.accounts
            now = time.time()
            if c.execute(sa.select(a.c.id).where(a.c.handle_key == handle_key(row["handle"]))).first() is not None:
                raise AccountError(f"the handle {row['handle']} is taken", 409, "account.handle-taken",
                                   handle=row["handle"])
            if c.execute(sa.select(a.c.id).where(a.c.player_id == row["player_id"])).first() is not None:
                raise AccountError("this player has an account already: sign in", 409, "account.player-taken")
            c.execute(sa.insert(a).values(id=row["account_id"], handle=row["handle"],
                                          handle_key=handle_key(row["handle"]), player_id=row["player_id"],
                                          user_handle=_b64(bytes.fromhex(row["account_id"][2:])), created_at=now))
            add_passkey(c, row["account_id"], verified, name, now)
            return new_session(c, row["account_id"], "browser", name, now)

        try:
            token = await store.transact(make)
        except sa.exc.IntegrityError:  # made at the same moment elsewhere (another worker)
            raise AccountError("the handle or the player was taken meanwhile", 409, "account.handle-taken",
                               handle=row["handle"]) from None
        session = await store.read(lambda c: session_by_token(c, token))
        log.info("account %s made", session.account_id)
        return await answer(request, session, token, status=201)

    def add_passkey(c: sa.Connection, account_id: str, verified: Any, name: str, now: float) -> None:
        c.execute(sa.insert(db.passkeys).values(
            id=secrets.token_hex(8), account_id=account_id, credential_id=_b64(verified.credential_id),
            public_key=_b64(verified.credential_public_key), sign_count=verified.sign_count, name=name,
            created_at=now, last_used=None))

    @app.post("/api/account/passkeys/begin")
    async def passkey_begin(request: Request) -> dict[str, Any]:
        """Add another passkey to the signed-in account: its creation options."""
        session = await signed_in(request)
        limit(by_account, session.account_id)
        store = manager_of(request).store
        p = db.passkeys

        def existing(c: sa.Connection) -> tuple[list[str], str]:
            ids = [r[0] for r in c.execute(sa.select(p.c.credential_id).where(p.c.account_id == session.account_id))]
            user = c.execute(sa.select(db.accounts.c.user_handle)
                             .where(db.accounts.c.id == session.account_id)).scalar_one()
            return ids, user

        ids, user = await store.read(existing)
        rp_id, _origin = relying_party(request)
        passkeys = _passkeys()
        options = passkeys.webauthn.generate_registration_options(
            rp_id=rp_id, rp_name="spite", user_name=session.handle, user_display_name=session.handle,
            user_id=_unb64(user),
            exclude_credentials=[passkeys.structs.PublicKeyCredentialDescriptor(id=_unb64(i)) for i in ids],
            authenticator_selection=passkeys.selection())
        now = time.time()
        cid = await store.transact(lambda c: put_challenge(c, "add", options.challenge, now,
                                                           account_id=session.account_id))
        return {"challengeId": cid, "options": passkeys.to_json(options)}

    @app.post("/api/account/passkeys/finish")
    async def passkey_finish(request: Request, body: CeremonyFinish) -> JSONResponse:
        """Keep the new passkey."""
        session = await signed_in(request)
        store = manager_of(request).store
        row = await store.transact(lambda c: take_challenge(c, body.challengeId, "add"))
        if row["account_id"] != session.account_id:
            raise AccountError("this sign-in has expired or was used already: start again", 400, "account.challenge")
        verified = verified_registration(request, body, row["challenge"])
        name = device_name(request, body.device)
        try:
            await store.transact(lambda c: add_passkey(c, session.account_id, verified, name, time.time()))
        except sa.exc.IntegrityError:
            raise AccountError("this passkey is kept already", 409, "account.passkey-known") from None
        return await answer(request, session, status=201)

    @app.delete("/api/account/passkeys/{passkey}")
    async def remove_passkey(request: Request, passkey: str = Path(max_length=32)) -> JSONResponse:
        """Remove a passkey (not the last one: without a passkey only the signed-in devices could
        ever sign in again)."""
        session = await signed_in(request)
        p = db.passkeys

        def remove(c: sa.Connection) -> None:
            count = c.execute(sa.select(sa.func.count()).select_from(p)
                              .where(p.c.account_id == session.account_id)).scalar_one()
            mine = c.execute(sa.select(p.c.id).where(p.c.id == passkey, p.c.account_id == session.account_id)).first()
            if mine is None:
                raise AccountError("there is no such passkey", 404, "account.no-passkey")
            if count <= 1:
                raise AccountError("the last passkey stays: add another first", 409, "account.last-passkey")
            c.execute(sa.delete(p).where(p.c.id == passkey))

        await manager_of(request).store.transact(remove)
        return await answer(request, session)

    # ------------------------------------------------------------------ signing in and out
    @app.post("/api/account/signin/begin")
    async def signin_begin(request: Request) -> dict[str, Any]:
        """Start signing in with a passkey: the request options (any of this site's passkeys)."""
        limit(by_address, client_address(request.scope))
        rp_id, _origin = relying_party(request)
        passkeys = _passkeys()
        options = passkeys.webauthn.generate_authentication_options(
            rp_id=rp_id, user_verification=passkeys.structs.UserVerificationRequirement.REQUIRED)
        now = time.time()
        cid = await manager_of(request).store.transact(lambda c: put_challenge(c, "signin", options.challenge, now))
        return {"challengeId": cid, "options": passkeys.to_json(options)}

    @app.post("/api/account/signin/finish")
    async def signin_finish(request: Request, body: CeremonyFinish) -> JSONResponse:
        """Check the passkey's signature; this device is signed in (the session's cookie)."""
        limit(by_address, client_address(request.scope))
        store = manager_of(request).store
        row = await store.transact(lambda c: take_challenge(c, body.challengeId, "signin"))
        raw_id = body.credential.get("rawId") or body.credential.get("id")
        if not isinstance(raw_id, str) or len(raw_id) > 1400:
            raise AccountError("the passkey was refused", 400, "account.passkey-refused")
        p = db.passkeys
        key = await store.read(lambda c: c.execute(sa.select(p).where(p.c.credential_id == raw_id)).mappings().first())
        if key is None:
            raise AccountError("this passkey belongs to no account here (it may have been removed)", 400,
                               "account.unknown-passkey")
        limit(by_account, key["account_id"])
        rp_id, origin = relying_party(request)
        passkeys = _passkeys()
        try:
            verified = passkeys.webauthn.verify_authentication_response(
                credential=body.credential, expected_challenge=_unb64(row["challenge"]), expected_rp_id=rp_id,
                expected_origin=origin, credential_public_key=_unb64(key["public_key"]),
                credential_current_sign_count=key["sign_count"], require_user_verification=True)
        except (passkeys.refused, ValueError, KeyError, TypeError) as exc:
            log.info("a passkey sign-in was refused: %s", type(exc).__name__)
            raise AccountError("the passkey was refused", 400, "account.passkey-refused") from None
        name = device_name(request, body.device)

        def sign_in(c: sa.Connection) -> str:
            now = time.time()
            c.execute(sa.update(p).where(p.c.id == key["id"]).values(sign_count=verified.new_sign_count,
                                                                      last_used=now))
            return new_session(c, key["account_id"], "browser", name, now)

        token = await store.transact(sign_in)
        session = await store.read(lambda c: session_by_token(c, token))
        return await answer(request, session, token)

    @app.post("/api/account/signout")
    async def sign_out(request: Request) -> JSONResponse:
        """Sign this device out."""
        session = await signed_in(request)
        s = db.sessions
        await manager_of(request).store.transact(lambda c: c.execute(sa.delete(s).where(s.c.id == session.id)))
        return cookie(request, JSONResponse({"signedOut": 1}), None)

    @app.post("/api/account/signout-everywhere")
    async def sign_out_everywhere(request: Request) -> JSONResponse:
        """Sign every device of the account out (this one too)."""
        session = await signed_in(request)
        s = db.sessions
        gone = await manager_of(request).store.transact(
            lambda c: c.execute(sa.delete(s).where(s.c.account_id == session.account_id)).rowcount)
        return cookie(request, JSONResponse({"signedOut": gone}), None)

    @app.delete("/api/account/devices/{device}")
    async def remove_device(request: Request, device: str = Path(max_length=32)) -> JSONResponse:
        """Sign one device of the account out."""
        session = await signed_in(request)
        s = db.sessions
        gone = await manager_of(request).store.transact(lambda c: c.execute(
            sa.delete(s).where(s.c.id == device, s.c.account_id == session.account_id)).rowcount)
        if not gone:
            raise AccountError("there is no such device", 404, "account.no-device")
        if device == session.id:
            return cookie(request, JSONResponse({"signedOut": 1}), None)
        return await answer(request, session)

    # ------------------------------------------------------------------ linking a device
    @app.post("/api/account/link")
    async def make_link_code(request: Request) -> dict[str, Any]:
        """A short code (and its QR code) that signs another device in to this account, once, within
        ``link_seconds``."""
        session = await signed_in(request)
        limit(by_account, session.account_id)
        code = new_code()
        lc = db.link_codes

        def put(c: sa.Connection) -> None:
            now = time.time()
            c.execute(sa.delete(lc).where(lc.c.expires_at < now - 86400))
            c.execute(sa.insert(lc).values(code_hash=_code_hash(code), account_id=session.account_id, created_at=now,
                                           expires_at=now + config.link_seconds, used_at=None))

        await manager_of(request).store.transact(put)
        url = f"{origin_of(request, config)}/account#link={shown_code(code)}"
        return {"code": shown_code(code), "expiresIn": config.link_seconds, "url": url, "qr": qr_svg(url)}

    @app.post("/api/account/link/redeem")
    async def redeem_link_code(request: Request, body: LinkRedeem) -> JSONResponse:
        """Sign this device in with a code another device of the account shows (once, in time)."""
        limit(by_address, client_address(request.scope))
        code = normalize_code(body.code)
        lc = db.link_codes
        kind: Literal["browser", "terminal"] = "terminal" if body.token else "browser"
        name = device_name(request, body.device) if body.device or not body.token else "terminal"

        def redeem(c: sa.Connection) -> str:
            now = time.time()
            row = c.execute(sa.select(lc).where(lc.c.code_hash == _code_hash(code))).mappings().first()
            if row is None:
                raise AccountError("there is no such link code", 400, "account.link-unknown")
            if row["used_at"] is not None:
                raise AccountError("this link code was used already: make a new one", 400, "account.link-used")
            if row["expires_at"] < now:
                raise AccountError("this link code has expired: make a new one", 400, "account.link-expired")
            taken = c.execute(sa.update(lc).where(lc.c.code_hash == row["code_hash"], lc.c.used_at.is_(None))
                              .values(used_at=now)).rowcount
            if taken != 1:  # redeemed at the same moment elsewhere
                raise AccountError("this link code was used already: make a new one", 400, "account.link-used")
            return new_session(c, row["account_id"], kind, name, now)

        token = await manager_of(request).store.transact(redeem)
        session = await manager_of(request).store.read(lambda c: session_by_token(c, token))
        return await answer(request, session, token, body_token=body.token)
