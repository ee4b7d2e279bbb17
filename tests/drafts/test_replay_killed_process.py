"""The reported run, with a real process: the app replaying a queued reply is killed (-9)
while the server's answer is held; the next start replays the queue: one reply, none queued."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from gitbook_tui.api import AsyncGitBook
from gitbook_tui.cache import account_fingerprint
from gitbook_tui.drafts import Outbox, OutboxAction, Replayer, client_handlers
from gitbook_tui.server.runner import start_in_thread
from support.waits import until_sync

SRC = Path(__file__).resolve().parents[2] / "src"
CHILD = """
import asyncio, os, sys
from gitbook_tui.api import AsyncGitBook
from gitbook_tui.drafts import Outbox, Replayer
url, account, root = sys.argv[1:4]
async def main():
    async with AsyncGitBook(os.environ["TEST_TOKEN"], base_url=url) as client:
        print("replaying", flush=True)
        await Replayer.for_client(Outbox(account, root), client).replay()
asyncio.run(main())
"""


@contextmanager
def holding_proxy(target: str) -> Iterator[str]:
    """A TCP proxy to ``target`` (host:port) that passes requests on and keeps every answer
    to itself: the server does the work, the client waits for an answer that never comes."""
    host, port = target.rsplit(":", 1)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()
    links: list[socket.socket] = []

    def pipe(source: socket.socket, sink: socket.socket | None) -> None:
        while not stop.is_set():
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                return
            if sink is not None:
                sink.sendall(data)

    def accept() -> None:
        while not stop.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            upstream = socket.create_connection((host, int(port)))
            links.extend([client, upstream])
            threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=pipe, args=(upstream, None), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for link in [*links, listener]:
            link.close()


def replies(url: str, token: str, space: str, thread: str) -> list[str]:
    headers = {"Authorization": f"Bearer {token}"}
    got = httpx.get(f"{url}/spaces/{space}/comments/{thread}/replies", headers=headers)
    return [r["body"]["markdown"] for r in got.json()["items"]]


@pytest.mark.skipif(sys.platform == "win32", reason="kill -9")
@pytest.mark.slow
async def test_killed_while_the_answer_is_held_then_restarted(tmp_path: Path) -> None:
    handle = start_in_thread(tmp_path / "server.sqlite", port=0, token="tok-owner")
    url, token = handle.url, handle.token
    headers = {"Authorization": f"Bearer {token}"}
    try:
        org = httpx.get(f"{url}/orgs", headers=headers).json()["items"][0]["id"]
        space = httpx.post(f"{url}/orgs/{org}/spaces", headers=headers, json={"title": "T"})
        sid = space.json()["id"]
        body = {"body": {"markdown": "Is this right?"}}
        thread = httpx.post(f"{url}/spaces/{sid}/comments", headers=headers, json=body)
        tid = thread.json()["id"]
        account = account_fingerprint(url, token)
        root = tmp_path / "outbox"
        Outbox(account, root).enqueue(OutboxAction.new_reply(sid, tid, "Yes, it is."))

        authority = url.split("//", 1)[1].split("/", 1)[0]
        with holding_proxy(authority) as proxy:
            via_proxy = url.replace(authority, proxy)
            env = {**os.environ, "PYTHONPATH": str(SRC), "TEST_TOKEN": token}  # not in argv
            child = subprocess.Popen(
                [sys.executable, "-c", CHILD, via_proxy, account, str(root)],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            try:

                def reply_landed() -> bool:
                    assert child.poll() is None, child.communicate()
                    return replies(url, token, sid, tid) == ["Yes, it is."]

                until_sync(reply_landed, "the reply to reach the server", timeout=60)
                os.kill(child.pid, signal.SIGKILL)  # …and the app dies waiting for the answer
            finally:
                child.wait(30)
        assert child.returncode == -signal.SIGKILL

        outbox = Outbox(account, root)
        [item] = outbox.pending()
        assert item.attempts == 1  # the app got as far as sending it
        # The next start: the plain replay (no check first) sends it again, with its key.
        async with AsyncGitBook(token, base_url=url) as client:
            result = await Replayer(outbox, client_handlers(client)).replay()
        assert len(result.sent) == 1 and result.remaining == 0
        assert replies(url, token, sid, tid) == ["Yes, it is."]
        assert outbox.pending() == [] and outbox.failed() == []
    finally:
        handle.stop()
