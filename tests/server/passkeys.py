"""A software passkey authenticator for the server tests: it makes P-256 credentials and answers
WebAuthn ceremonies exactly as a browser hands them to the page (``PublicKeyCredential.toJSON()``),
with the origin and relying party a test chooses (a wrong one, to see it refused)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    user: bytes
    rp_id: str
    count: int = 0


class SoftAuthenticator:
    """Holds credentials like a platform authenticator (discoverable, user verified)."""

    def __init__(self, origin: str = "http://testserver") -> None:
        self.origin = origin
        self.credentials: list[Credential] = []

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin or self.origin,
                           "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], *, origin: str | None = None, rp_id: str | None = None) -> dict[str, Any]:
        """``navigator.credentials.create`` for the server's creation options."""
        rp = rp_id or options["rp"]["id"]
        cred = Credential(os.urandom(32), ec.generate_private_key(ec.SECP256R1()), unb64(options["user"]["id"]), rp)
        numbers = cred.key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        auth = (hashlib.sha256(rp.encode()).digest() + bytes([0x45]) + (0).to_bytes(4, "big") + bytes(16)
                + len(cred.id).to_bytes(2, "big") + cred.id + cose)
        self.credentials.append(cred)
        client = self._client_data("webauthn.create", options["challenge"], origin)
        return {"id": b64(cred.id), "rawId": b64(cred.id), "type": "public-key", "clientExtensionResults": {},
                "authenticatorAttachment": "platform",
                "response": {"clientDataJSON": b64(client), "transports": ["internal"],
                             "attestationObject": b64(cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth}))}}

    def get(self, options: dict[str, Any], *, credential: Credential | None = None, origin: str | None = None,
            rp_id: str | None = None, verified: bool = True) -> dict[str, Any]:
        """``navigator.credentials.get`` (the newest credential unless told which; ``verified``: the user
        unlocked it, PIN or screen lock, not merely touched it)."""
        cred = credential or self.credentials[-1]
        cred.count += 1
        rp = rp_id or options.get("rpId") or cred.rp_id
        flags = 0x05 if verified else 0x01  # user present (and verified)
        auth = hashlib.sha256(rp.encode()).digest() + bytes([flags]) + cred.count.to_bytes(4, "big")
        client = self._client_data("webauthn.get", options["challenge"], origin)
        signature = cred.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": b64(cred.id), "rawId": b64(cred.id), "type": "public-key", "clientExtensionResults": {},
                "authenticatorAttachment": "platform",
                "response": {"clientDataJSON": b64(client), "authenticatorData": b64(auth),
                             "signature": b64(signature), "userHandle": b64(cred.user)}}
