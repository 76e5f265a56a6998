"""`tensorweave serve` answers real HTTP requests (a real subprocess on a free port)."""

import http.client
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import tensorweave as tf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _export(export_dir):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0], [2.0]], name="w")
    y = tf.matmul(x, w, name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.saved_model.simple_save(sess, export_dir, {"x": x}, {"y": y})


@pytest.fixture
def server(tmp_path):
    d = str(tmp_path / "model")
    _export(d)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "tensorweave", "serve", "--model_dir", d, "--port", "0",
                             "--model_name", "lin", "--max_request_bytes", "2000"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(ln) for ln in proc.stdout], daemon=True).start()
    port = None
    deadline = time.monotonic() + 30
    seen = []
    while port is None and time.monotonic() < deadline:
        try:
            ln = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            break
        seen.append(ln)
        m = re.search(r"http://127\.0\.0\.1:(\d+)/v1/models/lin", ln)
        if m:
            port = int(m.group(1))
    if port is None:
        proc.kill()
        proc.wait(10)
        pytest.fail("server did not start: " + "".join(seen))
    yield proc, port, lines
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)


def _request(port, method, path, body=None, raw=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    out = resp.status, json.loads(resp.read().decode())
    conn.close()
    return out


def test_server_answers_good_and_bad_requests_and_stops_on_sigterm(server):
    proc, port, lines = server
    path = "/v1/models/lin:predict"
    assert _request(port, "POST", path, {"instances": [[1, 1], [2, 0]]}) == (200, {"predictions": [[3.0], [2.0]]})
    assert _request(port, "POST", path, {"inputs": {"x": [[1, 2]]}}) == (200, {"outputs": [[5.0]]})
    assert _request(port, "POST", path, {"instances": [{"x": [0, 1]}]}) == (200, {"predictions": [[2.0]]})
    status, body = _request(port, "GET", "/v1/models/lin")
    assert status == 200 and body["model_version_status"][0]["state"] == "AVAILABLE"
    status, body = _request(port, "GET", "/v1/models/lin/metadata")
    sig = body["metadata"]["signature_def"]["signature_def"]["serving_default"]
    assert sig["inputs"]["x"]["dtype"] == "DT_FLOAT" and sig["method_name"] == "tensorflow/serving/predict"

    bad = [
        (dict(raw=b"{not json"), 400, "Malformed JSON"),
        (dict(body={"inputs": {"z": [[1, 2]]}}), 400, "Unknown input name"),
        (dict(body={"instances": [[1, 2, 3]]}), 400, "not compatible"),
        (dict(body={"instances": [["a", "b"]]}), 400, "cannot convert to float32"),
        (dict(body={"instances": [[1, 2], [3]]}), 400, "cannot convert"),
        (dict(body={"nothing": 1}), 400, "exactly one of"),
        (dict(body={"instances": [[1, 2]], "signature_name": "nope"}), 400, "not found"),
    ]
    for kwargs, code, msg in bad:
        status, body = _request(port, "POST", path, **kwargs)
        assert status == code and msg in body["error"], (kwargs, status, body)
    status, body = _request(port, "POST", "/v1/models/other:predict", {"instances": [[1, 2]]})
    assert status == 404 and "other" in body["error"]
    assert _request(port, "GET", "/v2/whatever")[0] == 404
    status, body = _request(port, "POST", path, raw=b" " * 5000)
    assert status == 413 and "exceeds" in body["error"]

    # Concurrent requests on the one session.
    results = []

    def hit(i):
        results.append(_request(port, "POST", path, {"instances": [[i, 0]]}))
    threads = [threading.Thread(target=hit, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert sorted(r[1]["predictions"][0][0] for r in results) == [float(i) for i in range(8)]
    assert all(r[0] == 200 for r in results)

    os.kill(proc.pid, signal.SIGTERM)
    assert proc.wait(15) == 0
    rest = []
    while not lines.empty():
        rest.append(lines.get_nowait())
    assert any("server stopped" in ln for ln in rest)


def test_served_model_in_process(tmp_path):
    from tensorweave.serving.model import RequestError, ServedModel
    d = str(tmp_path / "m")
    _export(d)
    os.rename(d, str(tmp_path / "1"))
    os.makedirs(d)
    os.rename(str(tmp_path / "1"), os.path.join(d, "1"))  # TF Serving layout: version subdirectories
    m = ServedModel(d, name="lin")
    assert m.version == "1"
    assert m.predict({"inputs": [[1.0, 1.0]]}) == {"outputs": [[3.0]]}
    with pytest.raises(RequestError, match="Missing input"):
        m.predict({"inputs": {}})
    np.testing.assert_allclose(m.predict({"instances": [[0.5, 0.5]]})["predictions"], [[1.5]])
