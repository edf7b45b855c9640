"""`python -m llmkit ...`: the command line in llmkit.cli."""

from .cli import main

raise SystemExit(main())
