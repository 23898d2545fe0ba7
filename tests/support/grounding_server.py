#!/usr/bin/env python3
"""A stand-in for an owner's grounding endpoint: a small OpenAI-compatible chat-completions
server (POST .../chat/completions) for the tests of desktop.ground.

    grounding_server.py DIR

Listens on 127.0.0.1 on a free port and writes it to DIR/port once it accepts. Each request's
body is appended to DIR/requests.jsonl, with the PNG's size read off its header ("imageWidth",
"imageHeight"). What it answers is read from DIR/answer.json at each request:
    {"content": "<the assistant's text>"}        answered as a completion
    {"status": 500, "body": "..."}               an HTTP error
    {"sleepSeconds": 5, "content": "..."}       answered that late
Like a real endpoint it knows nothing of the screen: the test tells it what to say.
"""
import base64
import json
import os
import struct
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIR = sys.argv[1]


def png_size(data_url):
    prefix = "data:image/png;base64,"
    if not data_url.startswith(prefix):
        return None
    head = base64.b64decode(data_url[len(prefix):][:64] + "==", validate=False)[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        record = {"path": self.path, "body": body}
        for message in body.get("messages", []):
            content = message.get("content")
            if isinstance(content, list):
                for part in content:
                    if part.get("type") == "image_url":
                        size = png_size(part["image_url"]["url"])
                        if size:
                            record["imageWidth"], record["imageHeight"] = size
                        part["image_url"]["url"] = part["image_url"]["url"][:40] + "..."
        with open(os.path.join(DIR, "requests.jsonl"), "a") as log:
            log.write(json.dumps(record) + "\n")
        with open(os.path.join(DIR, "answer.json")) as f:
            answer = json.load(f)
        time.sleep(answer.get("sleepSeconds", 0))
        if "status" in answer:
            payload = answer.get("body", "").encode()
            self.send_response(answer["status"])
        else:
            payload = json.dumps({
                "id": "chatcmpl-test", "object": "chat.completion", "model": body.get("model", ""),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": answer["content"]}}],
            }).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(DIR, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.replace(os.path.join(DIR, "port.tmp"), os.path.join(DIR, "port"))
server.serve_forever()
