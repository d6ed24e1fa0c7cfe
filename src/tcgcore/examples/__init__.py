"""Example game plugins that ship with tcgcore (they use only the public API)."""
