"""CPU kernels (NumPy). Every module in this package is imported, registering its kernels."""

import importlib
import pkgutil

for _m in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_m.name}")
