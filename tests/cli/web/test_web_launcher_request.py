"""The launcher's request to the zygote: a session's working folder and environment, byte
for byte (names and values as the OS holds them), and nothing else accepted."""

from __future__ import annotations

import os

import pytest

from gitbook_tui.cli.web_launcher import decode_request, encode_request


def test_a_request_carries_the_folder_and_the_environment_byte_for_byte() -> None:
    environ = {
        b"GITBOOK_TOKEN": b"t=ken==",  # '=' in a value
        b"EMPTY": b"",
        b"LANG_ODD": b"caf\xe9",  # not UTF-8
        b"COLUMNS": b"157",
    }
    cwd, decoded = decode_request(encode_request(b"/home/\xffdir", environ))
    assert os.fsencode(cwd) == b"/home/\xffdir"
    assert {os.fsencode(k): os.fsencode(v) for k, v in decoded.items()} == environ


@pytest.mark.parametrize(
    "data",
    [b"", b"/cwd", b"/cwd\0NOEQUALS\0", b"/cwd\0=value\0", b"/cwd\0A=1\0B=2"],
)
def test_a_malformed_request_is_refused(data: bytes) -> None:
    with pytest.raises(ValueError):
        decode_request(data)
