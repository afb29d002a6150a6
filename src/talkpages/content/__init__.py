"""Files -> Talks: the site's configuration, front matter, times, the typed model
of a talk, and the loader that reads a site and checks it. Nothing here renders or
writes; nothing here imports from output/, engine/ or commands/."""
