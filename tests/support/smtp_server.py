"""A real SMTP server on 127.0.0.1 for the email tests (aiosmtpd).

Prints its port on the first line of stdout, then saves every message it accepts as
DIR/<n>-<recipient>.eml. Recipients whose address contains "refuse" get a 550.
Stops by itself after a minute, or when stdin closes.
"""
import socket
import sys
import threading
import time
from pathlib import Path

from aiosmtpd.controller import Controller


class Handler:
    def __init__(self, out: Path):
        self.out = out
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if "refuse" in address:
            return "550 5.1.1 mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        for rcpt in envelope.rcpt_tos:
            self.count += 1
            (self.out / f"{self.count}-{rcpt}.eml").write_bytes(envelope.original_content)
        return "250 Message accepted for delivery"


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(Handler(out), hostname="127.0.0.1", port=port)
    controller.start()
    print(port, flush=True)
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait(timeout=60)
    controller.stop()


if __name__ == "__main__":
    main()
