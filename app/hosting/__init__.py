"""Hosting tables: which process runs each table, and the tables one process runs.

Between one table's runtime (:mod:`app.table`) and the socket edge (:mod:`app.realtime`),
knowing no sockets:

- :mod:`~app.hosting.live`: the tables this process runs (:class:`LiveTables`);
- :mod:`~app.hosting.leases`: each table's lease in the database, and the live processes;
- :mod:`~app.hosting.ownership`: claiming tables (at start, orphans, share-out), keeping
  their leases, electing the tournaments' director, and finding a table's owner;
- :mod:`~app.hosting.sweeper`: closing tables nobody has used for a while;
- :mod:`~app.hosting.moves`: a table following its players to the process they reach;
- :mod:`~app.hosting.listing`: the lobby's listing of open tables;
- :mod:`~app.hosting.host`: :class:`TableHost`, which opens, closes and stops them, and
  drains them before a deploy;
- :mod:`~app.hosting.ports`: what hosting needs from the edge (the other processes, the
  work only the director runs), as protocols the edge implements.
"""
