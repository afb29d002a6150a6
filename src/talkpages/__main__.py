from .commands.cli import run

run()
