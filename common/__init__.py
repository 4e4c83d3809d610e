"""Helpers every part may use: typed environment readers, request limits, the client address, the service's Redis."""
