"""`import tensorweave.compat.v1 as tf` gives the tensorweave namespace."""

import sys as _sys

import tensorweave as _tw

_sys.modules[__name__] = _tw
