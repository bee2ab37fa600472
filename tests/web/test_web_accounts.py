"""Accounts in the browser (docs/accounts.md), with Chromium's virtual authenticator (CDP ``WebAuthn``):
a person makes an account with a passkey and keeps their browser's player; signs out and in again;
links a second browser by the code the first one shows; a used code and a removed passkey are
refused with a clear answer and nothing changed; "sign out everywhere" signs every browser out.
The page is opened at ``localhost`` (a secure context, and the passkeys' relying party)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ConsoleWatch, WebServer
from test_web_german import english_words

from spite.server.table.seats import player_id


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    srv = WebServer(tmp_path_factory.mktemp("accounts") / "spite.db", "--limit", "account_burst=200")
    try:
        yield srv
    finally:
        srv.stop()


def local(server: WebServer) -> str:
    return f"http://localhost:{server.port}"


def authenticator(page: Any) -> tuple[Any, str]:
    """A platform authenticator (resident keys, user verification) for ``page``: the CDP session and its id."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return cdp, made["authenticatorId"]


def signed_in_as(page: Any, handle: str) -> None:
    page.wait_for_selector(f"#account[data-handle='{handle}']")
    assert page.inner_text("#account-handle") == f"Signed in as {handle}"


def test_make_an_account_sign_out_and_in_link_a_browser_and_sign_out_everywhere(browser: Any, server: WebServer,
                                                                                 tmp_path: Path) -> None:
    base = local(server)
    laptop_ctx = browser.new_context(locale="en-US")
    phone_ctx = browser.new_context(locale="en-US")
    stranger_ctx = browser.new_context(locale="en-US")
    try:
        laptop = laptop_ctx.new_page()
        watch = ConsoleWatch(laptop)
        authenticator(laptop)
        key = secrets.token_urlsafe(24)
        laptop.goto(base + "/")
        laptop.evaluate("(key) => localStorage.setItem('spite.playerKey', key)", key)  # a browser that has played
        laptop.click("#nav-account")
        laptop.fill("#handle", "Lotte")
        laptop.click("#create")
        signed_in_as(laptop, "Lotte")
        # the browser's player is the account's: its games, statistics and ratings stay with it
        assert laptop.get_attribute("#account", "data-player") == player_id(key)
        assert laptop.inner_text("#nav-account") == "Lotte"  # the top bar says who is signed in
        cookie = next(c for c in laptop_ctx.cookies() if c["name"] == "spite_session")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert "spite_session" not in laptop.evaluate("document.cookie")  # no script of the page reads it

        laptop.click("#sign-out")
        laptop.wait_for_selector("#account-note")
        assert laptop.inner_text("#account-note") == "You are signed out."
        laptop.click("#sign-in")
        signed_in_as(laptop, "Lotte")

        laptop.click("#link-new")
        code = laptop.inner_text("#link-code")
        assert len(code) == 9 and laptop.locator(".link-qr svg").count() == 1
        phone = phone_ctx.new_page()
        phone_watch = ConsoleWatch(phone)
        phone.goto(f"{base}/account#link={code}")  # as the QR code opens it
        assert phone.input_value("#link-code-input") == code
        phone.click("#link-go")
        signed_in_as(phone, "Lotte")
        assert phone.get_attribute("#account", "data-player") == player_id(key)
        assert phone.locator("#devices li").count() == 2

        # a game begun on the laptop goes on on the phone: the account's seat, not a spectator's view
        table = laptop.evaluate("""async () => (await (await fetch('/api/quickplay', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({level: 'random', preset: 'short', name: 'Lotte'})})).json()).table.id""")
        phone.goto(f"{base}/t/{table}")
        phone.wait_for_selector(".table[data-seat='0'][data-status=playing]")

        stranger = stranger_ctx.new_page()
        stranger.goto(base + "/account")
        stranger.fill("#link-code-input", code)  # the code again: it worked once
        stranger.click("#link-go")
        stranger.wait_for_selector("#account-error")
        assert stranger.inner_text("#account-error") == "This link code was used already: make a new one."
        assert stranger.locator("#account").count() == 0
        stranger.goto(f"{base}/t/{table}")  # not signed in: the same table only to watch
        stranger.wait_for_selector(".table[data-seat=''][data-status=playing]")

        phone.goto(base + "/account")
        phone.click("#sign-out-all")
        phone.wait_for_selector("#account-signed-out")
        laptop.reload()
        laptop.wait_for_selector("#account-signed-out")
        assert laptop.inner_text("#nav-account") == "Account"
        # (the browser notes each 401 of "who is signed in here?" on a signed-out page: that is its answer)
        assert [e for e in watch.errors + phone_watch.errors if "status of 401" not in e] == []
    finally:
        for ctx in (laptop_ctx, phone_ctx, stranger_ctx):
            ctx.close()


def test_a_removed_passkey_is_refused_with_a_clear_answer(browser: Any, server: WebServer) -> None:
    base = local(server)
    ctx = browser.new_context(locale="en-US")
    try:
        page = ctx.new_page()
        cdp, first = authenticator(page)
        page.goto(base + "/account")
        page.fill("#handle", "Marek")
        page.click("#create")
        signed_in_as(page, "Marek")
        # an assertion the page sent, sent again: refused, and no second session made
        page.click("#sign-out")
        page.wait_for_selector("#account-signed-out")
        with page.expect_request("**/api/account/signin/finish") as sent:
            page.click("#sign-in")
        signed_in_as(page, "Marek")
        replay = page.evaluate("""async (body) => {
            const r = await fetch('/api/account/signin/finish', {method: 'POST',
              headers: {'Content-Type': 'application/json'}, body});
            return [r.status, (await r.json()).code]; }""", sent.value.post_data)
        assert replay == [400, "account.challenge"]
        page.reload()
        signed_in_as(page, "Marek")
        assert page.locator("#devices li").count() == 1
        # a second passkey, on another authenticator (a security key, another phone)
        cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": first})
        authenticator(page)
        page.click("#add-passkey")
        page.wait_for_function("document.querySelectorAll('#passkeys li').length === 2")
        page.locator("#passkeys li").nth(1).locator("button.remove-passkey").click()
        page.wait_for_function("document.querySelectorAll('#passkeys li').length === 1")
        page.click("#sign-out")
        page.wait_for_selector("#account-signed-out")
        page.click("#sign-in")  # only the removed passkey is at hand
        page.wait_for_selector("#account-error")
        assert page.inner_text("#account-error") == ("This passkey belongs to no account here "
                                                     "(it may have been removed).")
        assert page.locator("#account").count() == 0
    finally:
        ctx.close()


def test_the_account_page_speaks_german_and_says_a_refused_handle_in_it(browser: Any, server: WebServer) -> None:
    base = local(server)
    ctx = browser.new_context(locale="de-DE")
    try:
        page = ctx.new_page()
        authenticator(page)
        page.goto(base + "/account")
        page.click("button.lang[data-lang=de]")
        page.wait_for_selector("#account-signed-out")
        assert english_words(page) == []  # the signed-out page all in German
        page.fill("#handle", "p-nope")
        page.click("#create")
        page.wait_for_selector("#account-error")
        assert page.inner_text("#account-error") == "Die Kennung p-nope ist reserviert."
        assert page.locator("#account").count() == 0
        page.fill("#handle", "Greta")
        page.click("#create")
        page.wait_for_selector("#account[data-handle=Greta]")
        page.click("#link-new")
        page.wait_for_selector("#link-code")
        assert english_words(page) == [] and page.inner_text("#nav-account") == "Greta"  # signed in: German too
    finally:
        ctx.close()


def test_an_expired_code_and_a_flood_of_attempts_are_refused_with_a_clear_answer(browser: Any,
                                                                                  tmp_path: Path) -> None:
    # every page here comes from 127.0.0.1: three attempts in all, then refusals; codes out of time at once
    srv = WebServer(tmp_path / "spite.db", "--limit", "link_seconds=0", "--limit", "account_burst=3",
                    "--limit", "account_rate=0.001")
    laptop_ctx, phone_ctx = browser.new_context(locale="en-US"), browser.new_context(locale="en-US")
    try:
        base = local(srv)
        laptop = laptop_ctx.new_page()
        authenticator(laptop)
        laptop.goto(base + "/account")
        laptop.fill("#handle", "Nora")
        laptop.click("#create")  # two attempts: the options, the new passkey
        signed_in_as(laptop, "Nora")
        laptop.click("#link-new")
        code = laptop.inner_text("#link-code")
        phone = phone_ctx.new_page()
        phone.goto(f"{base}/account#link={code}")
        phone.click("#link-go")  # the third attempt
        phone.wait_for_selector("#account-error")
        assert phone.inner_text("#account-error") == "This link code has expired: make a new one."
        phone.click("#sign-in")  # the fourth: refused before any passkey is asked for
        phone.wait_for_function("document.querySelector('#account-error')?.textContent.startsWith('Too many')")
        assert phone.inner_text("#account-error") == "Too many attempts: wait a little."
        assert phone.locator("#account").count() == 0
        laptop.reload()
        signed_in_as(laptop, "Nora")  # nothing changed for the account
        assert laptop.locator("#devices li").count() == 1
    finally:
        laptop_ctx.close()
        phone_ctx.close()
        srv.stop()
