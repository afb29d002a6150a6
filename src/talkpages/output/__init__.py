"""Talks -> outputs: the plan of every file a site has, the theme, pages, feeds and
the site's JSON files, as bytes in memory. Nothing here reads talk files or writes
to disk; it imports from content/ only."""
