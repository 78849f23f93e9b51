"""One module per ``jaxko`` subcommand: ``register(subparsers)`` adds it."""
