"""The server's signing key, and the public keys it published before: read, made and rotated.

A server signs receipts (`engine.signatures`) with one Ed25519 key, read when the app is built:

- `TABLELOG_SIGNING_KEY_FILE`: a PEM file holding it (PKCS#8, as `openssl genpkey -algorithm
  ed25519` writes it), readable by the server's user alone; or
- `TABLELOG_SIGNING_KEY`: the key itself, its raw 32 bytes in base64url (for a container's
  secret); it wins over the file.
- `TABLELOG_KEYS_FILE`: the published keys, a JSON document of `GET /v1/keys`'s shape: every
  key the server signed with, each with the time it came into use (`from`) and, once retired,
  the time it stopped (`until`). By default `keys.json` beside the key file. The current key
  is published whether listed there or not (then with `from` null: since an unknown time).

`python -m service.signing create DIR` makes `DIR/signing-key.pem` (mode 0600) and
`DIR/keys.json` unless the key is there already (`make run` does, beside its Redis data);
`python -m service.signing rotate DIR` retires the current key (its `until` set to now, its
public half kept in keys.json) and makes a new one. Web processes read the key when they
start: restart them after a rotation. Receipts signed before it still verify, with the key
that was in use at their time (docs/api.md, Receipts).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from engine.signatures import ALG, Signer, unb64
from store.log import now

KEY_FILE = "signing-key.pem"
KEYS_FILE = "keys.json"


class NoSigningKey(RuntimeError):
    """The app was asked to start without a key to sign its receipts with."""


@dataclass(frozen=True)
class Keyring:
    signer: Signer  # the current key
    published: list[dict[str, Any]]  # every key, as `GET /v1/keys` lists them

    @property
    def document(self) -> dict[str, Any]:
        return {"keys": self.published}


def load(config: Any) -> Keyring:
    """The keys a server's configuration names (module docstring)."""
    given, path = config.get("SIGNING_KEY"), config.get("SIGNING_KEY_FILE")
    if given:
        private = Ed25519PrivateKey.from_private_bytes(unb64(str(given)))
    elif path:
        private = _read_pem(Path(path))
    else:
        raise NoSigningKey(
            "no key to sign receipts with: set TABLELOG_SIGNING_KEY_FILE (make one with"
            " `python -m service.signing create DIR`) or TABLELOG_SIGNING_KEY")
    signer = Signer(private)
    listed = config.get("KEYS_FILE") or (Path(path).parent / KEYS_FILE if path else None)
    earlier = _published(Path(listed)) if listed else []
    if not any(k["kid"] == signer.kid for k in earlier):
        earlier.append(_entry(signer, None))
    return Keyring(signer, earlier)


def _read_pem(path: Path) -> Ed25519PrivateKey:
    private = load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(private, Ed25519PrivateKey):
        raise NoSigningKey(f"{path} does not hold an Ed25519 key")
    return private


def _published(path: Path) -> list[dict[str, Any]]:
    try:
        return list(json.loads(path.read_text())["keys"])
    except FileNotFoundError:
        return []


def _entry(signer: Signer, since: str | None) -> dict[str, Any]:
    return {"kid": signer.kid, "alg": ALG, "public_key": signer.public, "from": since,
            "until": None}


def create(folder: Path) -> Path:
    """A key in `folder`, made unless one is there; its path."""
    key = folder / KEY_FILE
    if not key.exists():
        _write_new(folder, [])
    return key


def rotate(folder: Path) -> Path:
    """Retire `folder`'s key and make a new one; the new key's path."""
    retiring = Signer(_read_pem(folder / KEY_FILE))
    at = now()
    keys = _published(folder / KEYS_FILE)
    if not any(k["kid"] == retiring.kid for k in keys):
        keys.append(_entry(retiring, None))
    keys = [{**k, "until": at} if k["kid"] == retiring.kid else k for k in keys]
    return _write_new(folder, keys, at)


def _write_new(folder: Path, earlier: list[dict[str, Any]], at: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    key = folder / KEY_FILE
    # Written under another name with its final mode, then renamed: the key is never readable
    # by others, and a web process starting meanwhile reads the old key or the new, whole.
    fresh = folder / f".{KEY_FILE}.new"
    handle = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(handle, "wb") as file:
        file.write(pem)
    published = folder / KEYS_FILE
    listing = folder / f".{KEYS_FILE}.new"
    keys = [*earlier, _entry(Signer(private), at or now())]
    listing.write_text(json.dumps({"keys": keys}, indent=2) + "\n")
    # The public keys first: a key is never in use before it is published.
    listing.replace(published)
    fresh.replace(key)
    return key


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("create", "rotate"):
        print("usage: python -m service.signing create|rotate DIR", file=sys.stderr)
        return 2
    made = (create if argv[0] == "create" else rotate)(Path(argv[1]))
    print(made)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
