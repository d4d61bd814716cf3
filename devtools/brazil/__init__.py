"""Brazil: Imperial's developer tools: seeded self-play with the engine's invariants checked
after every step (``selfplay``, ``scramble``), the engine's benchmark (``bench``), golden
transcripts (``transcript``) — ``python -m devtools.brazil {selfplay,bench,transcript}`` — and
every image kind with its drawing bench (``python -m devtools.brazil.render``)."""
