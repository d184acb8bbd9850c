"""A password rule beside Django's own validators (AUTH_PASSWORD_VALIDATORS): enough different characters,
so that eight spaces or ``aaaaaaaaaa`` are refused as plainly as ``password``."""

from django.core.exceptions import ValidationError


class CharacterVarietyValidator:
    def __init__(self, min_distinct: int = 5):
        self.min_distinct = min_distinct

    def validate(self, password, user=None):
        distinct = set(password)
        if len(distinct - set(" \t\r\n")) < self.min_distinct:
            raise ValidationError(
                f"This password has too few different characters: use at least {self.min_distinct}.",
                code="password_too_plain",
            )

    def get_help_text(self):
        return f"Your password must contain at least {self.min_distinct} different characters (not spaces)."
