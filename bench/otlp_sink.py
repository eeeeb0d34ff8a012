#!/usr/bin/python3
"""An OTLP/HTTP endpoint for benchmarks: answers every POST with 200 and an
empty protobuf body (a valid empty Export*ServiceResponse) and counts the
requests. Listens on 127.0.0.1 on a free port, printed on stdout."""
import http.server
import sys


class Sink(http.server.BaseHTTPRequestHandler):
    requests = 0

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Sink.requests += 1
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
print(server.server_address[1], flush=True)
server.serve_forever()
