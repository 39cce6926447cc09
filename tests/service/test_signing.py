"""The server's signing key as `make run` makes it and an operator rotates it (service.signing):
made once, readable by its owner alone, every key kept published."""

import stat
import subprocess
import sys

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.signatures import Signer, b64
from service import signing
from tests.conftest import ROOT


def _made(folder, *command):
    return subprocess.run([sys.executable, "-m", "service.signing", *command, str(folder)],
                          cwd=ROOT, capture_output=True, text=True, check=True, timeout=60)


def test_make_runs_key_is_made_once_beside_the_data_and_kept(tmp_path):
    first = _made(tmp_path, "create").stdout.strip()
    key = (tmp_path / signing.KEY_FILE).read_bytes()
    assert first == str(tmp_path / signing.KEY_FILE)
    assert stat.S_IMODE((tmp_path / signing.KEY_FILE).stat().st_mode) == 0o600
    _made(tmp_path, "create")
    assert (tmp_path / signing.KEY_FILE).read_bytes() == key
    ring = signing.load({"SIGNING_KEY_FILE": first})
    (published,) = ring.published
    assert published["kid"] == ring.signer.kid and published["from"] is not None


def test_the_command_make_run_calls_prints_the_key_file_and_no_warning(tmp_path):
    # As `make run` calls it: warnings shown as they are by default (pytest's own filter,
    # which makes them errors, is not the command's).
    made = subprocess.run([sys.executable, "-W", "default", "-m", "service.signing", "create",
                           str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (made.returncode, made.stdout, made.stderr) == (
        0, f"{tmp_path / signing.KEY_FILE}\n", "")


def test_a_rotation_keeps_every_earlier_key_published(tmp_path):
    _made(tmp_path, "create")
    first = signing.load({"SIGNING_KEY_FILE": str(tmp_path / signing.KEY_FILE)}).signer.kid
    for _ in range(2):
        _made(tmp_path, "rotate")
    ring = signing.load({"SIGNING_KEY_FILE": str(tmp_path / signing.KEY_FILE)})
    kids = [k["kid"] for k in ring.published]
    assert kids[0] == first and kids[-1] == ring.signer.kid and len(set(kids)) == 3
    assert [k["until"] is None for k in ring.published] == [False, False, True]


def test_a_key_given_in_the_environment_wins_and_is_published(tmp_path):
    _made(tmp_path, "create")
    private = Ed25519PrivateKey.generate()
    given = Signer(private)
    ring = signing.load({"SIGNING_KEY": b64(private.private_bytes_raw()),
                         "SIGNING_KEY_FILE": str(tmp_path / signing.KEY_FILE)})
    assert ring.signer.kid == given.kid
    assert ring.published[-1] == {"kid": given.kid, "alg": "Ed25519",
                                  "public_key": given.public, "from": None, "until": None}
