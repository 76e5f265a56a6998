"""`tensorweave serve`: a REST server in the style of TensorFlow Serving, standard library only.

    POST /v1/models/<name>:predict        {"instances": [...]} or {"inputs": {...}}
                                          -> {"predictions": [...]} or {"outputs": ...}
    GET  /v1/models/<name>                model status
    GET  /v1/models/<name>/metadata       signatures

Malformed JSON, unknown input names, wrong shapes or dtypes answer 400 with {"error": "..."};
unknown paths 404; bodies over the size cap 413. One loaded model, one session (Session.run is
thread-safe), a thread per request. SIGTERM/SIGINT stop the server cleanly.
"""

import json
import re
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .model import RequestError, ServedModel

DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024


class _Handler(BaseHTTPRequestHandler):
    server_version = "tensorweave-serving"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet by default; --verbose turns request logs on
        if self.server.verbose:
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    def _send(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status, message):
        self._send(status, {"error": message})

    def _route(self):
        m = re.fullmatch(r"/v1/models/([^/:]+)(?:/versions/(\d+))?(/metadata|:predict)?", self.path.split("?")[0])
        if not m:
            return None, None
        name, version, action = m.group(1), m.group(2), m.group(3) or ""
        model = self.server.model
        if name != model.name or (version is not None and version != model.version):
            return "missing", name
        return action, name

    def do_GET(self):  # noqa: N802
        action, name = self._route()
        if action is None:
            return self._error(404, f"Not found: {self.path}")
        if action == "missing":
            return self._error(404, f"Servable not found for request: Latest({name})")
        if action == "":
            return self._send(200, self.server.model.status())
        if action == "/metadata":
            return self._send(200, self.server.model.metadata())
        return self._error(405, "Use POST for :predict")

    def do_POST(self):  # noqa: N802
        action, name = self._route()
        length = self.headers.get("Content-Length")
        try:
            length = int(length) if length is not None else None
        except ValueError:
            length = None
        if length is None or length < 0:
            self.close_connection = True
            return self._error(411, "A Content-Length header is required")
        if length > self.server.max_request_bytes:
            self.close_connection = True  # the body is not read
            return self._error(413, f"Request body of {length} bytes exceeds the limit of "
                                    f"{self.server.max_request_bytes} bytes")
        raw = self.rfile.read(length)
        if action is None:
            return self._error(404, f"Not found: {self.path}")
        if action == "missing":
            return self._error(404, f"Servable not found for request: Latest({name})")
        if action != ":predict":
            return self._error(405, "POST is only for :predict")
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            return self._error(400, f"Malformed JSON request body: {e}")
        try:
            result = self.server.model.predict(body)
        except RequestError as e:
            return self._error(e.status, str(e))
        except Exception as e:  # noqa: BLE001  (never kill the server on one request)
            return self._error(500, f"{type(e).__name__}: {e}")
        return self._send(200, result)


class ModelServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, model, host="127.0.0.1", port=8501, max_request_bytes=DEFAULT_MAX_REQUEST_BYTES,
                 verbose=False):
        self.model = model
        self.max_request_bytes = max_request_bytes
        self.verbose = verbose
        super().__init__((host, port), _Handler)


def serve(model_dir, port=8501, host="127.0.0.1", model_name="default",
          max_request_bytes=DEFAULT_MAX_REQUEST_BYTES, verbose=False, install_signals=True, ready=None):
    """Loads the SavedModel and serves it until SIGTERM/SIGINT. Returns an exit status."""
    model = ServedModel(model_dir, name=model_name)
    server = ModelServer(model, host, port, max_request_bytes, verbose)
    h, p = server.server_address[:2]
    stop = threading.Event()

    def _stop(signum, frame):
        if not stop.is_set():
            stop.set()
            threading.Thread(target=server.shutdown, daemon=True).start()

    if install_signals:
        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)
    sig = model.default_signature()
    ins = ", ".join(sorted(model.signatures[sig][0]))
    print(f"serving model '{model_name}' (version {model.version}, signature '{sig}', inputs: {ins}) "
          f"at http://{h}:{p}/v1/models/{model_name}", flush=True)
    print(f"  curl -d '{{\"instances\": [...]}}' http://{h}:{p}/v1/models/{model_name}:predict", flush=True)
    if ready is not None:
        ready(server)
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
        model.session.close()
    print("server stopped", flush=True)
    return 0
