"""Command line: thin shells over the core (see dsagent.session)."""
