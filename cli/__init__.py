"""`tablelog` on the command line: a client of the HTTP API (and of the engine, to verify a
replay with no server at all)."""
