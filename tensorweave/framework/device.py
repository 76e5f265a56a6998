"""Device names: `tf.DeviceSpec`, TF's normalization of device strings, and `tf.device` merging.

Semantics follow TensorFlow (recorded from it in tests/framework/test_device_spec.py):
"/cpu:0" and "CPU:0" normalize to "/device:CPU:0"; "/job:ps/cpu" is "/job:ps/device:CPU:*";
a later field of the same kind wins ("/job:a/job:b" is "/job:b"); a device index without a device
type is not printed. Nested `tf.device` scopes are applied innermost first and each outer scope
only fills in the fields the inner ones left unset; `tf.device(None)` stops the outer scopes.
"""

__all__ = ["DeviceSpec", "canonical_name", "merge_device_function", "is_compatible", "VALID_DEVICE_TYPES"]

VALID_DEVICE_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPU"})


class DeviceSpec:
    """A (possibly partial) device: job, replica, task, device_type, device_index.

    Fields that are None are unspecified; a device_index of None prints as "*"."""

    __slots__ = ("_job", "_replica", "_task", "_device_type", "_device_index")
    _FIELDS = ("job", "replica", "task", "device_type", "device_index")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self.job = job
        self.replica = replica
        self.task = task
        self.device_type = device_type
        self.device_index = device_index

    # Setters normalize like TF's DeviceSpec (V1 is mutable).
    job = property(lambda self: self._job)
    replica = property(lambda self: self._replica)
    task = property(lambda self: self._task)
    device_type = property(lambda self: self._device_type)
    device_index = property(lambda self: self._device_index)

    @job.setter
    def job(self, v):
        self._job = None if v is None else str(v)

    @replica.setter
    def replica(self, v):
        self._replica = None if v is None else int(v)

    @task.setter
    def task(self, v):
        self._task = None if v is None else int(v)

    @device_type.setter
    def device_type(self, v):
        self._device_type = v.upper() if v and v != "*" else (None if v in (None, "*") else v)

    @device_index.setter
    def device_index(self, v):
        self._device_index = None if v in (None, "*") else int(v)

    @classmethod
    def from_string(cls, spec):
        return cls(*_parse(spec))

    def parse_from_string(self, spec):
        self.job, self.replica, self.task, self.device_type, self.device_index = _parse(spec)
        return self

    def merge_from(self, dev):
        """Overwrites this spec's fields with the fields `dev` specifies."""
        for f in self._FIELDS:
            v = getattr(dev, f)
            if v is not None:
                setattr(self, f, v)

    def make_merged_spec(self, dev):
        """A new spec: this one with the fields `dev` specifies taking precedence."""
        out = self.__class__(*[getattr(self, f) for f in self._FIELDS])
        out.merge_from(dev)
        return out

    def replace(self, **kwargs):
        vals = {f: getattr(self, f) for f in self._FIELDS}
        vals.update(kwargs)
        return self.__class__(**vals)

    def to_string(self):
        s = ""
        if self._job is not None:
            s += f"/job:{self._job}"
        if self._replica is not None:
            s += f"/replica:{self._replica}"
        if self._task is not None:
            s += f"/task:{self._task}"
        if self._device_type is not None:
            idx = "*" if self._device_index is None else self._device_index
            s += f"/device:{self._device_type}:{idx}"
        return s

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())

    def __str__(self):
        return self.to_string()

    def __repr__(self):
        return (f"<DeviceSpec(job={self._job}, replica={self._replica}, task={self._task}, "
                f"device_type={self._device_type}, device_index={self._device_index})>")


def _parse(spec):
    """TF's DeviceSpec string grammar -> (job, replica, task, device_type, device_index)."""
    job = replica = task = dtype = index = None
    if isinstance(spec, DeviceSpec):
        return spec.job, spec.replica, spec.task, spec.device_type, spec.device_index
    if not spec:
        return job, replica, task, dtype, index
    for part in spec.split("/"):
        if not part:
            continue
        y = part.split(":")
        n = len(y)
        if n == 2 and y[0] == "job":
            job = y[1]
        elif n == 2 and y[0] == "replica":
            replica = int(y[1])
        elif n == 2 and y[0] == "task":
            task = int(y[1])
        elif n in (1, 2) and y[0].upper() in VALID_DEVICE_TYPES:
            if dtype is not None:
                raise ValueError(f"Multiple device types are not allowed while parsing the device spec: {spec}.")
            dtype = y[0].upper()
            index = int(y[1]) if n == 2 and y[1] != "*" else None
        elif n == 3 and y[0] == "device":
            if dtype is not None:
                raise ValueError(f"Multiple device types are not allowed while parsing the device spec: {spec}.")
            dtype = y[1]
            index = int(y[2]) if y[2] != "*" else None
        else:
            raise ValueError(f"Unknown attribute '{y[0]}' is encountered while parsing the device spec: '{spec}'.")
    return job, replica, task, dtype, index


def canonical_name(device):
    """Normalizes a device string or DeviceSpec: "/cpu:0" -> "/device:CPU:0"."""
    if device is None:
        return ""
    if isinstance(device, DeviceSpec):
        return device.to_string()
    return DeviceSpec.from_string(device).to_string()


def is_compatible(request, device):
    """True if the full device name `device` satisfies the (partial) `request` (strings or specs)."""
    req = request if isinstance(request, DeviceSpec) else DeviceSpec.from_string(request)
    dev = device if isinstance(device, DeviceSpec) else DeviceSpec.from_string(device)
    for f in DeviceSpec._FIELDS:
        r = getattr(req, f)
        if r is not None and r != getattr(dev, f):
            return False
    return True


def _device_string(result):
    if isinstance(result, DeviceSpec):
        return result.to_string()
    # A device function's string result is kept as written (TF: '/cpu:0' stays '/cpu:0'); only
    # string scopes are canonicalized, when they merge.
    if isinstance(result, str):
        return result
    if isinstance(result, bytes):
        return result.decode()
    raise TypeError(f"Expected binary or unicode string, got {result!r}")


def merge_device_function(spec):
    """The function `fn(op) -> device string` a `tf.device(spec)` scope applies (None for None).

    The graph applies a scope stack innermost first, so `op.device` holds what the inner scopes
    chose: a string/DeviceSpec scope fills in only the fields still unset; a callable scope's
    result (it sees `op.device` so far) replaces the device."""
    if spec is None:
        return None
    if callable(spec) and not isinstance(spec, (str, DeviceSpec)):
        def apply_fn(op):
            return _device_string(spec(op))
        return apply_fn
    outer = spec if isinstance(spec, DeviceSpec) else DeviceSpec.from_string(spec)
    outer = DeviceSpec(*_parse(outer))

    def merge(op):
        return outer.make_merged_spec(DeviceSpec.from_string(op._device or "")).to_string()
    return merge
