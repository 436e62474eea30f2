"""The show layer: the game's words, drawing (SVG, PNG), the play page and terminal play.

It reads solved games from the layers below and never changes them; the game layer reaches
it only through one call-time door (:mod:`catmouse.display`).
"""
