"""Exceptions of the export path that import without torch."""


class DynamicShapeError(ValueError):
    """A graph that cannot be exported with the requested dynamic shapes, or
    one with an operator whose output shape depends on input values."""
