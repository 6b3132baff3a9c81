"""A small Language Server Protocol client for tests: drives a real clangd
over JSON-RPC on stdin/stdout (base protocol: Content-Length framed JSON).

    with Clangd(["tf-clangd"], compile_commands_dir) as server:
        server.open(path)
        diags = server.diagnostics(path)      # publishDiagnostics of the file
        actions = server.code_actions(path, diags[0])

Every message sent and received can be recorded (Clangd(..., log=list)) to
show an exchange as it happened.
"""
import json
import os
import pathlib
import queue
import subprocess
import threading


class LspError(RuntimeError):
    pass


class Clangd:
    def __init__(self, command, compile_commands_dir, env=None, log=None,
                 timeout=600):
        self.timeout = timeout
        self.log = log
        self.next_id = 0
        self.responses = {}
        # (uri, version) -> the diagnostics published for it.
        self.published = {}
        self.published_changed = threading.Condition()
        self.exited = False
        self.versions = {}
        self.proc = subprocess.Popen(
            command + ["--compile-commands-dir=" + str(compile_commands_dir),
                       "--background-index=false", "--log=error",
                       "--pch-storage=memory"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=env)
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def __enter__(self):
        self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": None,
            "capabilities": {"textDocument": {
                "publishDiagnostics": {"relatedInformation": True,
                                       "codeDescriptionSupport": True},
                "codeAction": {"codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["quickfix"]}}},
            }},
        })
        self.notify("initialized", {})
        return self

    def __exit__(self, *exc):
        # clangd may still be building a file when the checks are done; an
        # exit that takes long is not a finding.
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=60)
        except (LspError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()

    # JSON-RPC -------------------------------------------------------------

    def _send(self, message):
        message["jsonrpc"] = "2.0"
        if self.log is not None:
            self.log.append(("client", message))
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self):
        stream = self.proc.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    with self.published_changed:
                        self.exited = True
                        self.published_changed.notify_all()
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            if self.log is not None:
                self.log.append(("server", message))
            if "id" in message and "method" not in message:
                self.responses[message["id"]].put(message)
            elif message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                with self.published_changed:
                    self.published[(params["uri"], params.get("version"))] = \
                        params["diagnostics"]
                    self.published_changed.notify_all()
            elif "id" in message:  # a request from the server: accept it
                self._send({"id": message["id"], "result": None})

    def _drain_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode(errors="replace"))

    def request(self, method, params):
        self.next_id += 1
        reply = queue.Queue()
        self.responses[self.next_id] = reply
        self._send({"id": self.next_id, "method": method, "params": params})
        try:
            message = reply.get(timeout=self.timeout)
        except queue.Empty:
            raise LspError("no reply to %s within %ds; clangd said:\n%s" %
                           (method, self.timeout, "".join(self.stderr)))
        if "error" in message:
            raise LspError("%s failed: %s" % (method, message["error"]))
        return message["result"]

    def notify(self, method, params):
        self._send({"method": method, "params": params})

    # Documents ------------------------------------------------------------

    def diagnostics(self, path):
        """The diagnostics clangd publishes for the current version of the
        open document \\p path (waits for them)."""
        uri = pathlib.Path(path).resolve().as_uri()
        key = (uri, self.versions[uri])
        with self.published_changed:
            if not self.published_changed.wait_for(
                    lambda: key in self.published or self.exited,
                    timeout=self.timeout):
                raise LspError("no diagnostics for %s within %ds; clangd "
                               "said:\n%s" % (uri, self.timeout,
                                              "".join(self.stderr)))
            if key not in self.published:
                raise LspError("clangd exited; it said:\n" +
                               "".join(self.stderr))
            return self.published[key]

    def open(self, path, text=None):
        """Opens \\p path (with \\p text, else its contents); clangd starts
        building it (diagnostics() waits for the result)."""
        uri = pathlib.Path(path).resolve().as_uri()
        self.versions[uri] = 1
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cpp", "version": 1,
            "text": text if text is not None else pathlib.Path(path).read_text(),
        }})

    def change(self, path, text):
        """Replaces the open document's text."""
        uri = pathlib.Path(path).resolve().as_uri()
        self.versions[uri] += 1
        version = self.versions[uri]
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}]})

    def close(self, path):
        uri = pathlib.Path(path).resolve().as_uri()
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def code_actions(self, path, diagnostic):
        uri = pathlib.Path(path).resolve().as_uri()
        return self.request("textDocument/codeAction", {
            "textDocument": {"uri": uri},
            "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic], "only": ["quickfix"]},
        })


def apply_edits(text, edits):
    """\\p text with the LSP TextEdits \\p edits applied (positions in UTF-16
    code units; tf's sources are ASCII where edits land)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(pos):
        return starts[pos["line"]] + pos["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]),
                       reverse=True):
        begin, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:begin] + edit["newText"] + text[end:]
    return text
