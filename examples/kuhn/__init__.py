"""Kuhn poker: a minimal third game living in the repository as the example of a game
registered from its own folder (``examples/kuhn``): the rules (``state``, ``actions``,
``engine``, ``notation``, ``view``, ``game``, ``messages``: pure, importing nothing of the
platform but the shared ``rules`` modules), the service adapter (``adapter``), its pictures
(``render``), its computer players (``agents``), its rules reference (``rules.md``) and its
registration (``registration``: entry point ``kuhn`` of ``turnpost.games``)."""
