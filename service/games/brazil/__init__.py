"""Brazil: Imperial in the service: its adapter (:mod:`service.games.brazil.adapter`) and its
words for menus and the payment chooser (:mod:`service.games.brazil.labels`)."""
