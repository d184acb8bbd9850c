"""Who may read an answer's text, and when: decided from stored timestamps on every read path."""

from django.utils import timezone


def answer_visible(question, *, participant=None, is_target: bool = False, now=None) -> bool:
    if is_target:
        return True
    if participant is not None and question.asker_id == participant.pk:
        return True
    return (now or timezone.now()) >= question.answer.public_at
