"""Locale-aware text: CLDR plurals, typography, and effect texts rendered from operations."""
from .effects import OperationTextError, effect_text, operations_text, template_problems
from .plural import plural

__all__ = ["OperationTextError", "effect_text", "operations_text", "plural", "template_problems"]
