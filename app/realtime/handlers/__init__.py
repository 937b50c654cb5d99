"""The tables' client→server events, one module per family: connecting, the lobby,
seats and watching, and play. Each module's ``register`` adds its handlers to a
:class:`~app.realtime.server.Realtime`."""
