"""`python -m tensorweave` is the `tensorweave` command."""

import sys

from .cli import main

sys.exit(main())
