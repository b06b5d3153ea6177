"""Locale-aware text: CLDR plurals, typography, and effect texts rendered from operations."""
from .effects import effect_text, operations_text, template_problems
from .plural import plural

__all__ = ["effect_text", "operations_text", "plural", "template_problems"]
