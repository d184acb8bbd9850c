"""Games made before the arena carried a message policy get their study's rules on their
interrogation (arena 0009), so the arena's append enforces them as it does for new games."""

from django.db import migrations


def policy_copy(apps, schema_editor):
    Game = apps.get_model("studies", "Game")
    Interrogation = apps.get_model("arena", "Interrogation")
    for study_id, strict, cap in Game.objects.values_list(
        "study_id", "study__strict_alternation", "study__max_message_chars"
    ).distinct():
        Interrogation.objects.filter(study_game__study_id=study_id).update(
            turn_rule="alternate" if strict else "interrogator_first", max_message_chars=cap
        )


class Migration(migrations.Migration):
    dependencies = [("studies", "0001_initial"), ("arena", "0009_message_policy")]

    operations = [migrations.RunPython(policy_copy, migrations.RunPython.noop)]
