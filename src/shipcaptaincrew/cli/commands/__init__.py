"""The ``scc`` commands, one module per command or group of commands (``play``, ``rules``,
``solver`` for ``odds``/``strategy``/``report``, ``engine`` for ``turn``, ...): each registers
on :data:`..app.app`, which imports every module here when it starts.  A command module imports
heavy libraries inside its functions, so that ``scc --help`` stays quick.  The top of the
command line, with the app: commands may import the terminal table (``terminal``), the shared
helpers at the root of ``cli`` and the app; nothing imports a command module but the app's
loader."""
