"""``python -m storage``: see :mod:`storage.cli`."""

import sys

from storage.cli import main

sys.exit(main())
