"""``python -m rummyai.arena`` runs a tournament (same options as `rummyai tournament`)."""

from rummyai.arena.cli import main

raise SystemExit(main())
