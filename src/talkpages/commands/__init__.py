"""The command line: build, check, new, serve and import, and what they print."""
