"""`python -m llmbook new DIR`, `python -m llmbook update-numbers`: see llmbook/cli.py."""

import sys

from llmbook.cli import main

sys.exit(main())
