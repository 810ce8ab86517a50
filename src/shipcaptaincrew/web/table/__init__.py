"""A table in memory and what every feature of the match service shares about it: the room
with its seats, engine state and fair dice (``room``, ``seats``), its rows in the database
(``store``), its picture sent to everyone at the table (``broadcast``), the other server
processes' moves and who is online where (``cluster``, ``presence``), and every message a
client may send, checked (``schemas``).  It imports ``display``, ``words``, ``connections`` and
``storage``; the feature folders (``rooms``, ``play``, ``history``, ``setup``) import it."""
