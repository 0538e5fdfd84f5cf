"""`python -m choice.cli ...`: the same as the `choice` console script."""

import sys

from choice.cli import main

sys.exit(main())
