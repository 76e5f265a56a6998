"""Device names: `tf.DeviceSpec`, TF's normalization of device strings, and `tf.device` merging."""

__all__ = ["DeviceSpec", "canonical_name", "merge_device_function"]


class DeviceSpec:
    """A (possibly partial) device: job, replica, task, device_type, device_index."""

    __slots__ = ("job", "replica", "task", "device_type", "device_index")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self.job = job
        self.replica = None if replica is None else int(replica)
        self.task = None if task is None else int(task)
        self.device_type = device_type.upper() if device_type and device_type != "*" else device_type
        self.device_index = None if device_index in (None, "*") else int(device_index)

    @classmethod
    def from_string(cls, spec):
        return cls(*_parse(spec))

    def parse_from_string(self, spec):
        self.job, self.replica, self.task, self.device_type, self.device_index = _parse(spec)
        return self

    def merge_from(self, other):
        for f in self.__slots__:
            v = getattr(other, f)
            if v is not None:
                setattr(self, f, v)

    def make_merged_spec(self, other):
        out = DeviceSpec(*[getattr(self, f) for f in self.__slots__])
        out.merge_from(other)
        return out

    def replace(self, **kwargs):
        vals = {f: getattr(self, f) for f in self.__slots__}
        vals.update(kwargs)
        return DeviceSpec(**vals)

    def to_string(self):
        s = ""
        if self.job is not None:
            s += f"/job:{self.job}"
        if self.replica is not None:
            s += f"/replica:{self.replica}"
        if self.task is not None:
            s += f"/task:{self.task}"
        if self.device_type is not None:
            idx = "*" if self.device_index is None else self.device_index
            s += f"/device:{self.device_type}:{idx}"
        elif self.device_index is not None:
            s += f"/device:*:{self.device_index}"
        return s

    def __eq__(self, other):
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self):
        return hash(self.to_string())

    def __repr__(self):
        return f"<DeviceSpec(job={self.job}, replica={self.replica}, task={self.task}, " \
               f"device_type={self.device_type}, device_index={self.device_index})>"


def _parse(spec):
    job = replica = task = dtype = index = None
    if not spec:
        return job, replica, task, dtype, index
    for part in spec.split("/"):
        if not part:
            continue
        fields = part.split(":")
        key = fields[0].lower()
        if len(fields) == 2 and key == "job":
            job = fields[1]
        elif len(fields) == 2 and key == "replica":
            replica = int(fields[1])
        elif len(fields) == 2 and key == "task":
            task = int(fields[1])
        elif len(fields) == 3 and key == "device":
            dtype = fields[1]
            index = None if fields[2] == "*" else int(fields[2])
        elif len(fields) == 2 and key in ("cpu", "gpu", "tpu") or len(fields) == 2 and fields[0].isupper():
            dtype = fields[0].upper()
            index = None if fields[1] == "*" else int(fields[1])
        elif len(fields) == 1 and key in ("cpu", "gpu"):
            dtype = key.upper()
        else:
            raise ValueError(f"Unknown attribute: '{part}' in '{spec}'")
    return job, replica, task, dtype, index


def canonical_name(device):
    """Normalizes a device string or DeviceSpec: "/cpu:0" -> "/device:CPU:0"."""
    if device is None:
        return ""
    if isinstance(device, DeviceSpec):
        return device.to_string()
    return DeviceSpec.from_string(device).to_string()


def merge_device_function(spec):
    """A function (op, outer_device) -> device for a `tf.device` argument (string, spec, callable)."""
    if spec is None:
        return None
    if callable(spec) and not isinstance(spec, (str, DeviceSpec)):
        def apply_fn(op, outer):
            op._device = outer
            result = spec(op)
            return canonical_name(result) if result is not None else ""
        return apply_fn
    inner = spec if isinstance(spec, DeviceSpec) else DeviceSpec.from_string(spec)

    def merge(op, outer):
        merged = DeviceSpec.from_string(outer)
        merged.merge_from(inner)
        return merged.to_string()
    return merge
