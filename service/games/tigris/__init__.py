"""Tigris & Euphrates in the service: its adapter (:mod:`service.games.tigris.adapter`)."""
