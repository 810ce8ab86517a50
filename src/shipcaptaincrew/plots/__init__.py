"""Pictures of the solver's answers (matplotlib), kept out of the solver itself.

The solver computes and formats numbers with the standard library and NumPy only; drawing
needs matplotlib, so the figures live here and the command line imports them when asked
(``scc strategy --plot``, ``scc report strategy``).
"""
