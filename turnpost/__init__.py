"""The platform's front door: one command line for every surface (:mod:`turnpost.__main__`):
the terminal, the demo, the static game page and the Discord bot. It only starts them: each
surface is its own package (``terminal``, ``web``, ``bot``) over the game service."""
