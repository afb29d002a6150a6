"""talkpages: a folder of talk files in, a talks microsite and calendar feed out."""

__version__ = "0.1.0"
