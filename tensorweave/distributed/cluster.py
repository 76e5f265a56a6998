"""`tf.train.ClusterSpec`: the jobs of a cluster and the network address of each task, and
`cluster_from_env()`, which reads TF_CONFIG the way TensorFlow's launchers set it."""

import json
import os

from .protos import cluster_pb2

__all__ = ["ClusterSpec", "ClusterDef", "JobDef", "ServerDef", "cluster_from_env", "task_device"]

ClusterDef = cluster_pb2.ClusterDef
JobDef = cluster_pb2.JobDef
ServerDef = cluster_pb2.ServerDef


class ClusterSpec:
    """A cluster: job name -> tasks, each "host:port".

    `ClusterSpec({"ps": ["h0:2222"], "worker": ["h1:2222", "h2:2222"]})`; a job's tasks may also
    be a dict {task_index: address} (sparse). Also accepts a ClusterDef or another ClusterSpec.
    """

    def __init__(self, cluster):
        if isinstance(cluster, dict):
            self._cluster_spec = {}
            for job_name, tasks in cluster.items():
                if isinstance(tasks, (list, tuple)):
                    job_tasks = {i: t for i, t in enumerate(tasks)}
                elif isinstance(tasks, dict):
                    job_tasks = {int(i): t for i, t in tasks.items()}
                else:
                    raise TypeError(f"The tasks for job {job_name!r} must be a list or a dictionary "
                                    "from integers to strings.")
                self._cluster_spec[job_name] = job_tasks
            self._make_cluster_def()
        elif isinstance(cluster, ClusterDef):
            self._cluster_def = ClusterDef()
            self._cluster_def.CopyFrom(cluster)
            self._cluster_spec = {}
            for job_def in self._cluster_def.job:
                self._cluster_spec[job_def.name] = {i: t for i, t in job_def.tasks.items()}
        elif isinstance(cluster, ClusterSpec):
            self._cluster_def = ClusterDef()
            self._cluster_def.CopyFrom(cluster.as_cluster_def())
            self._cluster_spec = {}
            for job_def in self._cluster_def.job:
                self._cluster_spec[job_def.name] = {i: t for i, t in job_def.tasks.items()}
        else:
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to lists of "
                            "network addresses, or a `ClusterDef` protocol buffer")

    def _make_cluster_def(self):
        self._cluster_def = ClusterDef()
        for job_name, tasks in sorted(self._cluster_spec.items()):
            if not isinstance(job_name, str):
                raise TypeError(f"Job name {job_name!r} must be bytes or unicode")
            job_def = self._cluster_def.job.add()
            job_def.name = job_name
            for i, address in sorted(tasks.items()):
                if not isinstance(address, str):
                    raise TypeError(f"Task address {address!r} must be bytes or unicode")
                job_def.tasks[i] = address

    def __bool__(self):
        return bool(self._cluster_spec)

    __nonzero__ = __bool__

    def __eq__(self, other):
        return self._cluster_spec == other

    def __ne__(self, other):
        return self._cluster_spec != other

    __hash__ = None

    def __repr__(self):
        key_values = self.as_dict()
        string_items = [repr(k) + ": " + repr(key_values[k]) for k in sorted(key_values)]
        return "ClusterSpec({" + ", ".join(string_items) + "})"

    def as_dict(self):
        """job -> list of addresses (dense jobs) or {index: address} (sparse jobs)."""
        ret = {}
        for job in self.jobs:
            task_indices = self.task_indices(job)
            if len(task_indices) == 0:
                ret[job] = {}
                continue
            if max(task_indices) + 1 == len(task_indices):
                ret[job] = self.job_tasks(job)
            else:
                ret[job] = {i: self.task_address(job, i) for i in task_indices}
        return ret

    def as_cluster_def(self):
        return self._cluster_def

    @property
    def jobs(self):
        return list(self._cluster_spec.keys())

    def _job(self, job_name):
        try:
            return self._cluster_spec[job_name]
        except KeyError:
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def num_tasks(self, job_name):
        return len(self._job(job_name))

    def task_indices(self, job_name):
        return list(sorted(self._job(job_name).keys()))

    def task_address(self, job_name, task_index):
        job = self._job(job_name)
        try:
            return job[task_index]
        except KeyError:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}") from None

    def job_tasks(self, job_name):
        """The addresses of the job's tasks, a list indexed by task (None for gaps)."""
        job = self._job(job_name)
        ret = [None for _ in range(max(job.keys()) + 1)] if job else []
        for i, address in job.items():
            ret[i] = address
        return ret


def task_device(job_name, task_index):
    """The canonical name of a task: "/job:ps/replica:0/task:0"."""
    return f"/job:{job_name}/replica:0/task:{int(task_index)}"


def cluster_from_env(environ=None):
    """(ClusterSpec, job_name, task_index) from the TF_CONFIG environment variable.

    TF_CONFIG is JSON: {"cluster": {"ps": [...], "worker": [...]}, "task": {"type": "worker",
    "index": 0}}. Without TF_CONFIG: (empty ClusterSpec, None, None).
    """
    environ = os.environ if environ is None else environ
    raw = environ.get("TF_CONFIG", "")
    if not raw.strip():
        return ClusterSpec({}), None, None
    try:
        config = json.loads(raw)
    except ValueError as e:
        raise ValueError(f"TF_CONFIG is not valid JSON: {e}") from None
    if not isinstance(config, dict):
        raise ValueError("TF_CONFIG must be a JSON object with 'cluster' and 'task'")
    cluster = ClusterSpec(config.get("cluster") or {})
    task = config.get("task") or {}
    job_name = task.get("type")
    task_index = task.get("index")
    if task_index is not None:
        task_index = int(task_index)
    if job_name is not None and cluster and job_name not in cluster.jobs:
        raise ValueError(f"TF_CONFIG task type {job_name!r} is not a job of the cluster {cluster.jobs}")
    return cluster, job_name, task_index
