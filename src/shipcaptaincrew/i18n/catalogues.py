"""Which catalogue a source file's messages go to: the one place that decides.

Two front ends, two domains.  The web app's files (under ``web/``) speak to browsers: their
messages go to ``web``.  Every other file speaks to the terminal: ``scc``.  The exceptions are
the few files of the web app whose messages the terminal shows (:data:`TERMINAL_WEB`: ``scc
backup`` and ``scc restore`` print the refusals of ``web/history/backup.py``).  A new folder
under ``web/`` needs no entry anywhere.

``scripts/i18n.sh`` hands Babel the extraction map this module writes for a domain
(``python -m shipcaptaincrew.i18n.catalogues DOMAIN``), and ``tests/test_i18n.py`` runs Babel
with those maps over the package and checks that each file with a message lands in exactly the
catalogue :func:`domain_of` names.

The maps use file patterns only (each ends in ``.py``).  Babel also applies an ``ignore``
pattern to folders and skips a matching folder before it looks at any file in it: an
``[ignore: web/**]`` once hid ``web/history/backup.py`` from ``scc`` although the map named it
first, and the map then had to list every other folder of ``web/`` by hand.

>>> domain_of("cli/commands/serve.py"), domain_of("web/push/routes.py")
('scc', 'web')
>>> domain_of("web/history/backup.py")
'scc'
"""

from __future__ import annotations

import sys

#: The domains extracted from the code (``locales/<lang>/LC_MESSAGES/<domain>.po``).
DOMAINS = ("scc", "web")
#: The web app's folder, relative to the package.
WEB_APP = "web/"
#: Files of the web app whose messages the terminal shows, relative to the package.
TERMINAL_WEB = ("web/history/backup.py",)


def domain_of(path: str) -> str:
    """The catalogue of a module of the package (``path`` relative to it, with ``/``)."""
    return "web" if path.startswith(WEB_APP) and path not in TERMINAL_WEB else "scc"


def babel_map(domain: str) -> str:
    """Babel's extraction map (a ``.cfg``, paths relative to the package) for ``domain``:
    the files :func:`domain_of` gives it, the first matching line deciding."""
    if domain == "scc":
        lines = [f"[python: {p}]" for p in TERMINAL_WEB]
        lines += [f"[ignore: {WEB_APP}**.py]", "[python: **.py]"]
    elif domain == "web":
        lines = [f"[ignore: {p}]" for p in TERMINAL_WEB] + [f"[python: {WEB_APP}**.py]"]
    else:
        raise ValueError(f"no catalogue {domain!r} is extracted from the code ({DOMAINS})")
    head = f"# Babel's map for the {domain!r} catalogue, written by {__name__}: edit it there.\n"
    return head + "\n".join(lines) + "\n"


if __name__ == "__main__":  # scripts/i18n.sh
    print(" ".join(DOMAINS) if sys.argv[1:] == ["--domains"] else babel_map(sys.argv[1]), end="")
