"""The translators' workflow: progress, assignments, memory, gleaning, glossary upkeep, format.

Each module is a library callable without a subprocess; ``jaxko.commands.*`` only parse
arguments and print.
"""
