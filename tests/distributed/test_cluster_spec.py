"""ClusterSpec, ServerDef, TF_CONFIG and Server construction, checked against TensorFlow's own
behaviour (values recorded from tensorflow 2.21 `tf.compat.v1.train.ClusterSpec` / `Server`)."""

import json

import pytest

import tensorweave as tf
from tensorweave.distributed import ClusterSpec, cluster_from_env

pytestmark = pytest.mark.distributed

SPEC = {"ps": ["127.0.0.1:2222"], "worker": {1: "127.0.0.1:2224", 0: "127.0.0.1:2223"}}


def test_cluster_spec_matches_tensorflow():
    cs = tf.train.ClusterSpec(SPEC)
    # Recorded from TF.
    assert cs.as_dict() == {"ps": ["127.0.0.1:2222"], "worker": ["127.0.0.1:2223", "127.0.0.1:2224"]}
    assert cs.jobs == ["ps", "worker"]
    assert (cs.num_tasks("worker"), cs.num_tasks("ps")) == (2, 1)
    assert cs.task_indices("worker") == [0, 1]
    assert cs.task_address("worker", 1) == "127.0.0.1:2224"
    assert bool(cs) and not bool(tf.train.ClusterSpec({}))
    assert cs == tf.train.ClusterSpec(cs.as_dict())
    assert not cs == tf.train.ClusterSpec({"ps": ["x:1"]})
    assert cs != tf.train.ClusterSpec({})
    assert not cs == {"ps": ["127.0.0.1:2222"], "worker": ["127.0.0.1:2223", "127.0.0.1:2224"]}  # TF: False
    assert repr(cs) == ("ClusterSpec({'ps': ['127.0.0.1:2222'], 'worker': ['127.0.0.1:2223', "
                        "'127.0.0.1:2224']})")
    assert str(cs.as_cluster_def()) == (
        'job {\n  name: "ps"\n  tasks {\n    key: 0\n    value: "127.0.0.1:2222"\n  }\n}\n'
        'job {\n  name: "worker"\n  tasks {\n    key: 0\n    value: "127.0.0.1:2223"\n  }\n'
        '  tasks {\n    key: 1\n    value: "127.0.0.1:2224"\n  }\n}\n')
    assert tf.train.ClusterSpec(cs.as_cluster_def()).as_dict() == cs.as_dict()
    assert tf.train.ClusterSpec(cs) == cs
    sparse = tf.train.ClusterSpec({"w": {0: "a:1", 3: "b:2"}})
    assert sparse.as_dict() == {"w": {0: "a:1", 3: "b:2"}}
    assert (sparse.num_tasks("w"), sparse.task_indices("w")) == (2, [0, 3])
    with pytest.raises(TypeError, match="unhashable"):
        hash(cs)


@pytest.mark.parametrize("call, cls, message", [
    (lambda cs: cs.num_tasks("nope"), ValueError, "No such job in cluster: 'nope'"),
    (lambda cs: cs.task_address("worker", 5), ValueError, "No task with index 5 in job 'worker'"),
    (lambda cs: cs.task_indices("nope"), ValueError, "No such job in cluster: 'nope'"),
    (lambda cs: tf.train.ClusterSpec("x"), TypeError, "`cluster` must be a dictionary mapping one or more job "
                                                      "names to lists of network addresses, or a `ClusterDef` "
                                                      "protocol buffer"),
    (lambda cs: tf.train.ClusterSpec({"a": "b:1"}), TypeError,
     "The tasks for job 'a' must be a list or a dictionary from integers to strings."),
    (lambda cs: tf.train.ClusterSpec({"a": {"x": "b"}}), ValueError, "invalid literal for int()"),
    (lambda cs: tf.train.ClusterSpec({1: ["a:1"]}), TypeError, "Job name 1 must be bytes or unicode"),
])
def test_cluster_spec_errors_match_tensorflow(call, cls, message):
    with pytest.raises(cls) as e:
        call(tf.train.ClusterSpec(SPEC))
    assert message in str(e.value)


def test_server_def_and_validation():
    cs = tf.train.ClusterSpec(SPEC)
    sd = tf.train.ServerDef(cluster=cs.as_cluster_def(), job_name="ps", task_index=0, protocol="grpc")
    assert str(sd).endswith('job_name: "ps"\nprotocol: "grpc"\n')  # TF omits task_index 0 too
    with pytest.raises(ValueError, match="Must specify an explicit `job_name`."):
        tf.train.Server(cs)
    with pytest.raises(ValueError, match="Must specify an explicit `task_index`."):
        tf.train.Server(cs, job_name="worker")
    with pytest.raises(ValueError, match="No such job in cluster: 'b'"):
        tf.train.Server({"a": ["127.0.0.1:0"]}, job_name="b")


def test_local_server_target_and_join():
    server = tf.train.Server.create_local_server()
    try:
        assert server.target.startswith("grpc://localhost:")  # TF: grpc://localhost:<port>
        assert server.server_def.job_name == "localhost"
        assert server.server_def.protocol == "grpc"
        server.join(timeout=0.1)  # returns after the timeout while still serving
        with tf.Session(server.target) as sess:
            assert sess.run(tf.constant(2.0) * 3.0) == 6.0
    finally:
        server.stop()
    s2 = tf.train.Server({"local": ["127.0.0.1:0"]}, start=False)
    try:
        assert s2.target.startswith("grpc://127.0.0.1:") and not s2.target.endswith(":0")
    finally:
        s2.stop()


def test_cluster_from_env():
    config = {"cluster": {"ps": ["127.0.0.1:1"], "worker": ["127.0.0.1:2", "127.0.0.1:3"]},
              "task": {"type": "worker", "index": 1}}
    cluster, job, index = cluster_from_env({"TF_CONFIG": json.dumps(config)})
    assert cluster.as_dict() == config["cluster"] and (job, index) == ("worker", 1)
    assert cluster_from_env({}) == (ClusterSpec({}), None, None)
    with pytest.raises(ValueError, match="not a job of the cluster"):
        cluster_from_env({"TF_CONFIG": json.dumps({"cluster": {"ps": ["a:1"]}, "task": {"type": "chief"}})})
