"""A real SMTP server on 127.0.0.1 for the email tests (aiosmtpd).

    smtp_server.py DIR [--drop-after N] [--stall-at N] [--tempfail WORD]
                       [--tls starttls|implicit --cert PEM --key PEM] [--auth USER:PASSWORD]

Prints its port on the first line of stdout, then saves every message it accepts as
DIR/<n>-<recipient>.eml (and appends "<time> <recipient>" to DIR/log.txt). Recipients whose
address contains "refuse" get a 550 (for good). Those containing WORD (--tempfail) get a
451 the first time, then are accepted. With --drop-after N, the connection is dropped
(closed without a reply) when the (N+1)th message begins, once. With --stall-at N, the
server prints "STALL" on stdout when the Nth message begins and answers nothing more.
With --tls, the connection is protected with the given certificate: STARTTLS, which the
server then requires before mail, or TLS from the first byte. With --auth, mail is taken
only after AUTH with that user and password (over TLS only).
Stops by itself after two minutes, or when stdin closes.
"""
import argparse
import asyncio
import socket
import sys
import threading
import time
from pathlib import Path

import ssl

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Handler:
    def __init__(self, out: Path, args):
        self.out = out
        self.args = args
        self.count = 0
        self.begun = 0
        self.dropped = False
        self.tempfailed = set()

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        self.begun += 1
        if self.args.drop_after is not None and not self.dropped and self.begun == self.args.drop_after + 1:
            self.dropped = True
            self.begun -= 1
            server.transport.close()
            return "421 closing"
        if self.args.stall_at is not None and self.begun >= self.args.stall_at:
            print("STALL", flush=True)
            await asyncio.sleep(3600)
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if "refuse" in address:
            return "550 5.1.1 mailbox unavailable"
        word = self.args.tempfail
        if word and word in address and address not in self.tempfailed:
            self.tempfailed.add(address)
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        for rcpt in envelope.rcpt_tos:
            self.count += 1
            (self.out / f"{self.count}-{rcpt}.eml").write_bytes(envelope.original_content)
            with open(self.out / "log.txt", "a") as log:
                log.write(f"{time.time():.3f} {rcpt}\n")
        return "250 Message accepted for delivery"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--drop-after", type=int)
    parser.add_argument("--stall-at", type=int)
    parser.add_argument("--tempfail")
    parser.add_argument("--tls", choices=["starttls", "implicit"])
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--auth")
    args = parser.parse_args()
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    options = {}
    if args.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
        if args.tls == "starttls":
            options.update(tls_context=context, require_starttls=True)
        else:
            options.update(ssl_context=context)
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (
                isinstance(auth_data, LoginPassword)
                and auth_data.login.decode() == user
                and auth_data.password.decode() == password
            )
            # handled=False: the server itself answers 235 or 535.
            return AuthResult(success=ok, handled=False)

        # aiosmtpd counts only STARTTLS as TLS for auth_require_tls; an implicit-TLS
        # connection is encrypted from its first byte anyway.
        options.update(
            authenticator=authenticator,
            auth_required=True,
            auth_require_tls=args.tls != "implicit",
        )
    controller = Controller(Handler(out, args), hostname="127.0.0.1", port=port, **options)
    controller.start()
    print(port, flush=True)
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait(timeout=120)
    controller.stop()


if __name__ == "__main__":
    main()
