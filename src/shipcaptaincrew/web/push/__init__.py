"""Your turn, on your lock screen: Web Push for the people whose turn it is and who are not at
the table.  The server's VAPID key pair, made once and kept in the database (``keys``); the
browsers' subscriptions, each a seat's (a crew member's once crews exist), with quiet hours
and muted tables (``subscriptions``, ``quiet``, ``owners``); whose turn began when (``turns``);
the outbox, one row per turn and subscription written before anything is sent and claimed by
one worker (``outbox``); the sending itself through pywebpush, with retries and dropped
subscriptions (``sender``); the part the match service holds (``notifier``) and the
``/api/push`` routes (``routes``).  A feature folder: it imports the shared folders below it
(``table``, ``words``, ``storage``, ``connections``); the match service (``web/service.py``)
and the app import it.  docs/web.md ("Your turn, on your lock screen") says what it needs."""
