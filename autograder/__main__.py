"""``python -m autograder``: the kit's command line."""

import sys

from autograder.cli import main

sys.exit(main())
