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
`python -m service.signing rotate DIR` retires the current key (its `until` set to the moment the
new one is published, its public half kept in keys.json) and makes a new one. Running web
processes take the new key up at their next signature, with no restart: a receipt is stamped
and signed under a shared lock on the key's folder, which a rotation holds alone while it
publishes, so every receipt is dated within its key's `from` and `until`, and every genuine
receipt verifies for good (docs/api.md, Receipts).
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
from telemetry.metrics import SIGNING_SECONDS

KEY_FILE = "signing-key.pem"
KEYS_FILE = "keys.json"


class NoSigningKey(RuntimeError):
    """The app was asked to start without a key to sign its receipts with."""


class Keyring:
    """The key a server signs with, and every key it published (`GET /v1/keys`).

    A key read from a file is the one in use at each signature: a rotation in its folder
    (`rotate`) is taken up by the next receipt, without a restart."""

    def __init__(self, signer: Signer, published: list[dict[str, Any]],
                 source: tuple[Path, Path] | None = None):
        self.signer = signer  # the current key
        self._published = published
        self._source = source  # the key file and the keys file, when the key was read from one
        self._seen = _identity(source[0]) if source else None
        self._folder: tuple[int, int] | None = None  # (the process, its handle on the folder)

    @property
    def published(self) -> list[dict[str, Any]]:
        """Every key, as `GET /v1/keys` lists them."""
        if self._source is None:
            return self._published
        with self._in_use() as (_, published):
            return published

    @property
    def document(self) -> dict[str, Any]:
        return {"keys": self.published}

    def receipt(self, game: str, seq: int, entry_hash: str) -> dict[str, Any]:
        """The server's receipt for entry `seq`, dated now, by the key in use now; the time its
        signature took is observed (`telemetry.metrics.SIGNING_SECONDS`)."""
        if self._source is None:
            signer, at = self.signer, now()
        else:
            with self._in_use() as (signer, _):
                at = now()
        began = time.perf_counter()
        signed = signer.receipt(game, seq, entry_hash, at)
        SIGNING_SECONDS.observe(time.perf_counter() - began)
        return signed

    @contextmanager
    def _in_use(self) -> Iterator[tuple[Signer, list[dict[str, Any]]]]:
        """The key in use and the keys published, read again if a rotation replaced the key
        file, held so while the block runs: no rotation publishes meanwhile."""
        assert self._source is not None
        key_file, keys_file = self._source
        # A handle of this process's own: a forked process sharing one would share its lock,
        # and either one's unlock would release both.
        if self._folder is None or self._folder[0] != os.getpid():
            self._folder = (os.getpid(), os.open(key_file.parent, os.O_RDONLY))
        folder = self._folder[1]
        fcntl.flock(folder, fcntl.LOCK_SH)
        try:
            if (seen := _identity(key_file)) != self._seen:
                self.signer = Signer(_read_pem(key_file))
                self._published = _listed(self.signer, keys_file)
                self._seen = seen
            yield self.signer, self._published
        finally:
            fcntl.flock(folder, fcntl.LOCK_UN)


def load(config: Any) -> Keyring:
    """The keys a server's configuration names (module docstring)."""
    given, path = config.get("SIGNING_KEY"), config.get("SIGNING_KEY_FILE")
    listed = config.get("KEYS_FILE") or (Path(path).parent / KEYS_FILE if path else None)
    if given:
        signer = Signer(Ed25519PrivateKey.from_private_bytes(unb64(str(given))))
        return Keyring(signer, _listed(signer, Path(listed) if listed else None))
    if not path:
        raise NoSigningKey(
            "no key to sign receipts with: set TABLELOG_SIGNING_KEY_FILE (make one with"
            " `python -m service.signing create DIR`) or TABLELOG_SIGNING_KEY")
    key_file, keys_file = Path(path), Path(listed)
    with _locked(key_file.parent, fcntl.LOCK_SH):
        signer = Signer(_read_pem(key_file))
        return Keyring(signer, _listed(signer, keys_file), (key_file, keys_file))


def _listed(signer: Signer, keys_file: Path | None) -> list[dict[str, Any]]:
    """The keys published in `keys_file`, the current one among them."""
    earlier = _published(keys_file) if keys_file else []
    if not any(k["kid"] == signer.kid for k in earlier):
        earlier.append(_entry(signer, None))
    return earlier


def _identity(path: Path) -> tuple[int, int]:
    """What changes when a file is replaced (a rotation renames a new one in)."""
    stat = os.stat(path)
    return stat.st_ino, stat.st_mtime_ns


@contextmanager
def _locked(folder: Path, how: int) -> Iterator[None]:
    handle = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(handle, how)
        yield
    finally:
        os.close(handle)


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
    """Retire `folder`'s key and make a new one; the new key's path.

    Held alone on the folder's lock, so that no web process signs while the new key is
    published: a receipt dated before `at` is the old key's, one dated after it the new
    key's (`Keyring.receipt`)."""
    with _locked(folder, fcntl.LOCK_EX):
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
