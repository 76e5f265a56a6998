"""`tf.errors`: the runtime error classes, each with TF's error code."""

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """A failure while running a step. `op` is the Operation that failed (or None)."""

    def __init__(self, node_def, op, message, error_code=UNKNOWN, *args):
        super().__init__()      # (as TF's: e.args is (), repr(e) is "NotFoundError()")
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def error_code(self):
        return self._error_code

    @property
    def node_def(self):
        return self._node_def

    def __reduce__(self):
        return type(self), (self._node_def, self._op, self._message)

    def __str__(self):
        # TF 2.x appends the failed op's creation stack to str(e) (not to e.message), also when
        # the run-time error is re-raised wrapped (Saver.restore's "... Original error:\n\n").
        stack = getattr(self._op, "_stack", None)
        if not stack or _GRAPH_EXECUTION_ERROR not in self._message:
            return self._message
        return (f"{self._message}\n\nOriginal stack trace for '{self._op.name}':\n"
                + "".join(f'  File "{fn}", line {line}, in {name}\n' for fn, line, name in stack))


_GRAPH_EXECUTION_ERROR = "Graph execution error:\n\n"


def is_graph_execution_message(message):
    return message.startswith(_GRAPH_EXECUTION_ERROR)


def graph_execution_message(message, node_name=None, stack=()):
    """A run-time error's message as TF 2.x's Session.run words it: "Graph execution error:",
    then (when the failed node is known) where it was defined and the node's name, then the
    kernel's message, then the node tag "[[{{node x}}]]"."""
    if node_name is None:
        return _GRAPH_EXECUTION_ERROR + message
    where = "".join(f'    File "{fn}", line {line}, in {name}\n' for fn, line, name in stack)
    return (f"{_GRAPH_EXECUTION_ERROR}Detected at node '{node_name}' defined at (most recent call last):\n"
            f"{where}Node: '{node_name}'\n{message}\n\t [[{{{{node {node_name}}}}}]]")


def _subclass(name, code, doc):
    def __init__(self, node_def, op, message, *args):
        OpError.__init__(self, node_def, op, message, code)

    cls = type(name, (OpError,), {"__init__": __init__, "__doc__": doc})
    return cls


CancelledError = _subclass("CancelledError", CANCELLED, "An operation or step was cancelled.")
UnknownError = _subclass("UnknownError", UNKNOWN, "An unknown error.")
InvalidArgumentError = _subclass("InvalidArgumentError", INVALID_ARGUMENT,
                                 "An operation received an invalid argument.")
DeadlineExceededError = _subclass("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline expired.")
NotFoundError = _subclass("NotFoundError", NOT_FOUND, "A requested entity was not found.")
AlreadyExistsError = _subclass("AlreadyExistsError", ALREADY_EXISTS, "An entity already exists.")
PermissionDeniedError = _subclass("PermissionDeniedError", PERMISSION_DENIED, "Permission denied.")
UnauthenticatedError = _subclass("UnauthenticatedError", UNAUTHENTICATED, "Not authenticated.")
ResourceExhaustedError = _subclass("ResourceExhaustedError", RESOURCE_EXHAUSTED,
                                   "Some resource has been exhausted.")
FailedPreconditionError = _subclass("FailedPreconditionError", FAILED_PRECONDITION,
                                    "The system is not in a state to run the operation.")
AbortedError = _subclass("AbortedError", ABORTED, "The operation was aborted.")
OutOfRangeError = _subclass("OutOfRangeError", OUT_OF_RANGE,
                            "An operation iterated past the valid input range.")
UnimplementedError = _subclass("UnimplementedError", UNIMPLEMENTED, "The operation is not implemented.")
InternalError = _subclass("InternalError", INTERNAL, "The system hit an internal error.")
UnavailableError = _subclass("UnavailableError", UNAVAILABLE, "The runtime is unavailable.")
DataLossError = _subclass("DataLossError", DATA_LOSS, "Unrecoverable data loss or corruption.")

_CODE_TO_CLASS = {
    CANCELLED: CancelledError, UNKNOWN: UnknownError, INVALID_ARGUMENT: InvalidArgumentError,
    DEADLINE_EXCEEDED: DeadlineExceededError, NOT_FOUND: NotFoundError,
    ALREADY_EXISTS: AlreadyExistsError, PERMISSION_DENIED: PermissionDeniedError,
    UNAUTHENTICATED: UnauthenticatedError, RESOURCE_EXHAUSTED: ResourceExhaustedError,
    FAILED_PRECONDITION: FailedPreconditionError, ABORTED: AbortedError,
    OUT_OF_RANGE: OutOfRangeError, UNIMPLEMENTED: UnimplementedError, INTERNAL: InternalError,
    UNAVAILABLE: UnavailableError, DATA_LOSS: DataLossError,
}


def exception_type_from_error_code(error_code):
    return _CODE_TO_CLASS[error_code]


def error_code_from_exception_type(cls):
    for code, c in _CODE_TO_CLASS.items():
        if c is cls:
            return code
    return UNKNOWN


def __getattr__(name):
    # tf.errors.raise_exception_on_not_ok_status lives with the platform helpers (imported lazily:
    # framework/ imports nothing above it at load time).
    if name == "raise_exception_on_not_ok_status":
        from ..platform.compat_api import raise_exception_on_not_ok_status
        return raise_exception_on_not_ok_status
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
