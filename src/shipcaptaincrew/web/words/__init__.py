"""The words the server speaks, all of them message ids of the ``web`` catalogue (or the core's
``scc`` one): how they are marked (``catalogue``), the strings the pages show
(``page_strings``), the words the server writes into a room's picture (``server_texts``), a
text kept as an id until it is said in each connection's language (``render``), refusals with
their HTTP status (``refusals``), a malformed message said in one sentence (``invalid``), a
player's choice in words (``choices``), and names a person can read and tell apart
(``names``).  It imports only ``storage`` of the web package; every
other folder may import it."""
