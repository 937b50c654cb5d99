"""The reference browser client: pages, scripts and styles served by the server."""
