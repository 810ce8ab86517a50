"""A push service on this machine: the receiving end of Web Push, for tests.

It does what a browser's push service and the browser do together with a message, with the
``cryptography`` library and nothing borrowed from the sender's side:

- it makes a subscription as a browser does (:meth:`PushService.subscribe`): an ECDH P-256
  key pair and a 16-byte auth secret of its own, and an endpoint on this server
  (``http://127.0.0.1:PORT/push/ID``);
- it takes messages as RFC 8030 says (``POST`` to the endpoint, ``TTL`` required, answered
  201 Created with a ``Location``), or answers what a test asked for (404, 410, 429, 500...);
- it checks the VAPID authorisation of RFC 8292: ``Authorization: vapid t=JWT, k=KEY``, the
  JWT's ES256 signature made with the key ``k`` (and ``k`` the server's, when the test says
  which that is), its ``aud`` this push service's origin, its ``exp`` in the future and at
  most 24 hours away, its ``sub`` a ``mailto:`` or ``https:`` contact;
- it decrypts the body as RFC 8291 and RFC 8188 say (``Content-Encoding: aes128gcm``: the
  salt, record size and the sender's public key in the header; ECDH with the subscription's
  private key, HKDF with the auth secret, AES-128-GCM, the padding delimiter) and keeps the
  plaintext.

A message that fails a check is answered as a push service would (400 or 401/403) and kept in
:attr:`PushService.refused` with the reason, so a test can say none was.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

#: The longest a VAPID token may live (RFC 8292, section 2).
DAY = 24 * 3600


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


class Refused(Exception):
    """A message a push service would refuse: ``status`` and why."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


@dataclass
class Subscription:
    """A browser's side of one subscription: its keys, and what the push service answers."""

    id: str
    endpoint: str
    private: ec.EllipticCurvePrivateKey
    auth: bytes
    #: Statuses to answer the next messages with, in order (then 201).
    answers: list[int] = field(default_factory=list)

    @property
    def public(self) -> bytes:
        return self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    def json(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives a page."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64e(self.public), "auth": b64e(self.auth)},
        }

    def decrypt(self, body: bytes) -> bytes:
        """The plaintext of an ``aes128gcm`` body (RFC 8291 section 3.4, RFC 8188 section 2)."""
        if len(body) < 21:
            raise Refused(400, "body shorter than its header")
        salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        if rs < 18 or idlen != 65:
            raise Refused(400, f"record size {rs} or key id length {idlen}")
        sender = body[21 : 21 + idlen]
        content = body[21 + idlen :]
        try:
            sender_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender)
        except ValueError:
            raise Refused(400, "the sender's key is not on P-256") from None
        secret = self.private.exchange(ec.ECDH(), sender_key)
        ikm = _hkdf(self.auth, secret, b"WebPush: info\x00" + self.public + sender, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        records = [content[i : i + rs] for i in range(0, len(content), rs)]
        out = b""
        for seq, record in enumerate(records):
            iv = (int.from_bytes(nonce, "big") ^ seq).to_bytes(12, "big")
            try:
                plain = AESGCM(cek).decrypt(iv, record, None)
            except InvalidTag:
                raise Refused(400, "the body does not decrypt with this subscription") from None
            data = plain.rstrip(b"\x00")
            last = seq == len(records) - 1
            if not data or data[-1] != (2 if last else 1):
                raise Refused(400, "no padding delimiter")
            out += data[:-1]
        return out


@dataclass(frozen=True)
class Message:
    """A message the push service took: to which subscription, its headers, the VAPID claims
    and the decrypted plaintext (parsed as JSON), and what it answered."""

    subscription: str
    headers: dict[str, str]
    claims: dict[str, Any]
    key: str
    plaintext: bytes
    status: int
    at: float

    @property
    def data(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.plaintext)
        return value


class PushService:
    """The HTTP server (a thread) with its subscriptions and what it received."""

    def __init__(self) -> None:
        self.subscriptions: dict[str, Subscription] = {}
        #: Messages taken and decrypted (whatever status was answered).
        self.messages: list[Message] = []
        #: Messages refused: (subscription id, status, reason).
        self.refused: list[tuple[str, int, str]] = []
        #: The server's VAPID public key (base64url) when a test knows it: another key refused.
        self.server_key: str | None = None
        self._changed = threading.Condition()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> PushService:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def subscribe(self, *answers: int) -> Subscription:
        """A new subscription, as a browser makes one; ``answers``: the statuses of its first
        messages (then 201)."""
        sid = secrets.token_urlsafe(12)
        sub = Subscription(
            sid,
            f"{self.origin}/push/{sid}",
            ec.generate_private_key(ec.SECP256R1()),
            secrets.token_bytes(16),
            list(answers),
        )
        self.subscriptions[sid] = sub
        return sub

    def received(self, sub: Subscription | None = None, status: int | None = 201) -> list[Message]:
        """The messages taken (for ``sub``; answered ``status``, None: any)."""
        with self._changed:
            return [
                m
                for m in self.messages
                if (sub is None or m.subscription == sub.id)
                and (status is None or m.status == status)
            ]

    def wait(self, count: int, timeout: float = 30.0, status: int | None = 201) -> list[Message]:
        """Wait until ``count`` messages were answered ``status``; returns them."""
        end = time.monotonic() + timeout
        with self._changed:
            while True:
                got = [m for m in self.messages if status is None or m.status == status]
                if len(got) >= count:
                    return got
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"{len(got)} of {count} push messages arrived; refused: {self.refused}"
                    )
                self._changed.wait(left)

    # -- checks --------------------------------------------------------------------------------
    def check_vapid(self, header: str) -> tuple[dict[str, Any], str]:
        """The claims of a valid ``vapid t=..., k=...`` authorisation, and its key."""
        scheme, _, rest = header.partition(" ")
        if scheme.lower() != "vapid":
            raise Refused(401, f"scheme {scheme!r}, not vapid")
        params = dict(p.strip().split("=", 1) for p in rest.split(",") if "=" in p)
        token, key = params.get("t", ""), params.get("k", "")
        if self.server_key is not None and key != self.server_key:
            raise Refused(403, "signed with another key than the server's")
        try:
            head_b64, claims_b64, sig_b64 = token.split(".")
            head = json.loads(b64d(head_b64))
            claims = json.loads(b64d(claims_b64))
            signature = b64d(sig_b64)
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(key))
        except ValueError as e:
            raise Refused(401, f"malformed token: {e}") from None
        if head.get("alg") != "ES256" or len(signature) != 64:
            raise Refused(401, f"not ES256: {head}")
        r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
        try:
            public.verify(
                encode_dss_signature(r, s),
                f"{head_b64}.{claims_b64}".encode(),
                ec.ECDSA(hashes.SHA256()),
            )
        except InvalidSignature:
            raise Refused(401, "the token's signature is wrong") from None
        now = time.time()
        if claims.get("aud") != self.origin:
            raise Refused(401, f"aud {claims.get('aud')!r} is not {self.origin}")
        exp = claims.get("exp")
        if not isinstance(exp, int) or not now < exp <= now + DAY:
            raise Refused(401, f"exp {exp!r} not within the next 24 hours")
        sub = str(claims.get("sub", ""))
        if not (sub.startswith("mailto:") or sub.startswith("https://")):
            raise Refused(401, f"sub {sub!r} is no contact")
        return claims, key

    def take(self, sid: str, headers: dict[str, str], body: bytes) -> tuple[int, str]:
        """Check and keep one message; returns the status to answer and a reason."""
        sub = self.subscriptions.get(sid)
        if sub is None:
            return 404, "no such subscription"
        try:
            if "ttl" not in headers:
                raise Refused(400, "no TTL header")
            if headers.get("content-encoding") != "aes128gcm":
                raise Refused(400, f"content-encoding {headers.get('content-encoding')!r}")
            claims, key = self.check_vapid(headers.get("authorization", ""))
            plaintext = sub.decrypt(body)
        except Refused as e:
            with self._changed:
                self.refused.append((sid, e.status, e.reason))
                self._changed.notify_all()
            return e.status, e.reason
        status = sub.answers.pop(0) if sub.answers else 201
        with self._changed:
            self.messages.append(
                Message(sid, headers, claims, key, plaintext, status, time.monotonic())
            )
            self._changed.notify_all()
        return status, "taken"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                sid = self.path.removeprefix("/push/")
                status, reason = service.take(sid, headers, body)
                self.send_response(status, reason)
                if status == 201:
                    self.send_header("Location", f"{service.origin}/message/{secrets.token_hex(8)}")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

        return Handler
