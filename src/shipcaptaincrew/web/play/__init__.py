"""Playing at the live table: the WebSocket route ``/ws/rooms/{code}`` (``routes``), the live
table's messages, from hello to rolls, choices, advice requests and pings (``protocol``), a move
applied by the engine, committed and told to everyone (``moves``), and the moves nobody sends:
a bot's after its pause, an absent person's turn played by a stand-in (``autoplay``); the
table's say about who plays for whom and who leaves, never a blip (``standin``); and the
table screens a seated player pairs (``screens``).  A
feature folder: it imports the shared folders below it and the other features; the match
service (``web/service.py``) and the app import it."""
