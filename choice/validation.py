"""The request rules, at the import path `choice.validation` that integrations use: they
live in `choice.contract.validation`."""

from choice.contract.validation import ValidatedRequest, check_rules, validate_request

__all__ = ["ValidatedRequest", "check_rules", "validate_request"]
